// `tooldesk config get|set|path`: reads and writes settings.json with dotted keys and JSON values.
import { defaultSettings } from '../../../shared/settings.ts';
import { forbiddenKeyIn, getPath, keyPathProblem } from '../../runtime/store/dotted-path.ts';
import { SettingsValidationError } from '../../runtime/store/settings-store.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';

/** A JSON value, or the text itself when it is not JSON (so `config set systemPrompt hello` works). */
export function parseConfigValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const configCommand: Command = {
  name: 'config',
  summary: 'Read or change settings (dotted keys, JSON values)',
  usage: [
    'Usage: tooldesk config get [KEY]',
    '       tooldesk config set KEY VALUE',
    '       tooldesk config path',
    '',
    'KEY is a dotted path into settings.json, e.g. limits.maxSteps, groupDefaults, systemPrompt;',
    'list items by index, e.g. providers.0.model.',
    'VALUE is JSON (25, true, null, ["a"], {"k":"v"}); anything that is not JSON is taken as a string.',
    'Values are checked against the settings schema; an invalid value changes nothing.',
    '',
    'Examples:',
    '  tooldesk config set limits.maxSteps 40',
    '  tooldesk config set providers \'[{"id":"ollama","name":"Ollama","kind":"openai-compatible","baseURL":"http://127.0.0.1:11434/v1","model":"qwen3:8b"}]\'',
    '  tooldesk config set activeProviderId ollama',
  ].join('\n'),
  async run(argv, io) {
    const { positionals } = parseArgs(argv);
    const [action, key, value, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (quote a VALUE with spaces)`);
    const problem = key === undefined ? undefined : keyPathProblem(key);
    if (problem && (action === 'get' || action === 'set')) {
      io.stderr.write(`tooldesk config: ${problem}\n`);
      return 1;
    }
    const runtime = await openCliRuntime(io, { tools: false });
    const { settings } = runtime;
    try {
      if (action === 'path') {
        io.stdout.write(`${settings.path}\n`);
        return 0;
      }
      if (action === 'get') {
        if (value !== undefined) throw new UsageError('config get takes one KEY');
        const found = key === undefined ? settings.get() : getPath(settings.get(), key);
        if (found === undefined) {
          io.stderr.write(`tooldesk config: no setting "${key}"\n`);
          return 1;
        }
        io.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
        return 0;
      }
      if (action === 'set') {
        if (key === undefined || value === undefined) throw new UsageError('config set needs KEY and VALUE');
        // The file may hold keys of a newer version, but a typo must not be saved silently.
        const top = key.split('.')[0]!;
        if (!Object.hasOwn(defaultSettings(), top)) {
          io.stderr.write(`tooldesk config: no setting "${top}"; the settings are: ${Object.keys(defaultSettings()).join(', ')}\n`);
          return 1;
        }
        const parsed = parseConfigValue(value);
        const inside = forbiddenKeyIn(parsed);
        if (inside) {
          io.stderr.write(`tooldesk config: the value holds the key "${inside}"; __proto__, constructor and prototype cannot be keys\n`);
          return 1;
        }
        try {
          settings.set(key, parsed);
        } catch (error) {
          if (error instanceof SettingsValidationError || /key path/.test((error as Error).message)) {
            io.stderr.write(`tooldesk config: ${(error as Error).message}\n`);
            return 1;
          }
          throw error;
        }
        io.stdout.write(`${key} = ${JSON.stringify(getPath(settings.get(), key))}\n`);
        return 0;
      }
      throw new UsageError(action ? `unknown action "${action}"` : 'missing action: get, set or path');
    } finally {
      await runtime.close();
    }
  },
};
