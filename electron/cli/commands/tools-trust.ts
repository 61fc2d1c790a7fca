// `tooldesk tools trust PATH [--revoke]` and `tools untrust PATH`: approves (or withdraws) a
// project tool folder, remembered by path in settings.trustedProjectFolders. Until then the
// folder is listed as "untrusted project folder — review" and none of its tools loads.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectFoldersNamed, withFoldersTrusted } from '../../runtime/host/services/project-trust.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

async function setTrust(argv: string[], io: CliIO, trusted: boolean): Promise<number> {
  const args = parseArgs(argv, { booleans: ['revoke'] });
  const [given, ...extra] = args.positionals;
  if (!given) throw new UsageError('missing the PATH of the project tool folder');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const trust = trusted && !flag(args, 'revoke');
  const path = resolve(given);
  if (trust && !isDirectory(path)) {
    io.stderr.write(`tooldesk tools trust: ${path} is not a folder. Give the project tool folder shown by \`tooldesk tools list\` (e.g. ~/proj/.omp/tools).\n`);
    return 1;
  }
  const runtime = await openCliRuntime(io, { tools: false });
  const { settings } = runtime;
  try {
    const folders = trust ? projectFoldersNamed(path) : [path];
    settings.set('trustedProjectFolders', withFoldersTrusted(settings.get().trustedProjectFolders ?? [], folders, trust));
    for (const folder of folders) {
      io.stdout.write(trust ? `trusted ${folder}: its tools load from now on\n` : `no longer trusted ${folder}: its tools will not load until approved again\n`);
    }
    return 0;
  } finally {
    await runtime.close();
  }
}

const usage = [
  'Usage: tooldesk tools trust PATH [--revoke]',
  '       tooldesk tools untrust PATH',
  '',
  'Approves a project tool folder (.omp/tools or .config/agenvoy/tools/script inside a project),',
  'so its tools load; until then it is listed as "untrusted project folder — review" and nothing',
  'in it is read. PATH may also be the project itself: its project tool folders are approved.',
  'The approval is remembered by path (settings: trustedProjectFolders). Tool roots you name',
  'yourself (settings toolRoots, --root) need no approval. --revoke (or `untrust`) withdraws it.',
].join('\n');

export const toolsTrustCommand: Command = {
  name: 'trust',
  summary: 'Approve a project tool folder so its tools load (--revoke to withdraw)',
  usage,
  run: (argv, io) => setTrust(argv, io, true),
};

export const toolsUntrustCommand: Command = {
  name: 'untrust',
  summary: 'Withdraw the approval of a project tool folder',
  usage,
  run: (argv, io) => setTrust(argv, io, false),
};
