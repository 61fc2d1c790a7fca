// Names no user tool may take: the built-in variable tools (and any other built-in group's).
import { LIST_VARS, READ_VAR, REMOVE_VARS, WRITE_VAR } from '../../tools/variables/vars-tools.ts';

export const BUILTIN_TOOL_NAMES: readonly string[] = [READ_VAR, LIST_VARS, WRITE_VAR, REMOVE_VARS];
