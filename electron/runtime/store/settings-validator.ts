// The compiled settings check. The `tooldesk` bundle replaces this module with ajv's standalone
// code for the same schema and options, generated when the bundle is built
// (electron/cli/cli-bundle.mjs), so commands never load or run ajv's compiler for the settings.
import { Ajv } from 'ajv';
import { SETTINGS_SCHEMA } from './settings-schema.ts';

// The schema is ours and checked against JSON Schema's meta-schema by a test, so each start skips
// that check: compiling the meta-schema took 70% of the compile (170 of 240 ms at start).
export const SETTINGS_VALIDATOR_OPTIONS = { allErrors: true, strict: false, validateSchema: false } as const;

export default new Ajv(SETTINGS_VALIDATOR_OPTIONS).compile(SETTINGS_SCHEMA);
