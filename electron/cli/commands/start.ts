// `tooldesk start` (npm start): the Electron app when its binary is present; otherwise browser
// mode, after saying why in one paragraph.
import { spawn } from 'node:child_process';
import { UsageError, type Command } from '../command.ts';
import { findElectronBinary } from '../electron-binary.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { runBrowserMode } from '../serve/run-browser-mode.ts';
import { buildRenderer, projectRoot } from '../serve/renderer-build.ts';
import { parsePort } from './serve.ts';

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: projectRoot, stdio: 'inherit', env });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** A download that fails at once (no network) never said it was downloading; one still running after this did. */
export const DOWNLOAD_NOTICE_AFTER_MS = 1500;

/**
 * Runs the electron package's download script quietly; resolves with its error's first line on
 * failure. `onLongRunning` is called once if it is still at work after DOWNLOAD_NOTICE_AFTER_MS.
 */
export function downloadElectron(installer: string, env: NodeJS.ProcessEnv, onLongRunning: () => void, noticeAfterMs = DOWNLOAD_NOTICE_AFTER_MS): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [installer], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env });
    const notice = setTimeout(onLongRunning, noticeAfterMs);
    child.on('close', () => clearTimeout(notice));
    let output = '';
    const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4096));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve(error.message));
    child.on('exit', (code) => {
      if (code === 0) return resolve(null);
      const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
      resolve(lines.find((l) => /error/i.test(l) && !l.startsWith('at ')) ?? lines.at(-1) ?? `exit code ${code}`);
    });
  });
}

export const startCommand: Command = {
  name: 'start',
  summary: 'Start the desktop app (browser mode when Electron is missing)',
  usage: [
    'Usage: tooldesk start [--browser] [--port N] [--new-token] [--open]',
    '',
    'Builds the app and launches Electron, downloading Electron\'s binary on the first start.',
    'When the binary cannot be had (the download needs internet access), says why and serves',
    'the same app in browser mode instead, printing the link to open (see `tooldesk help serve`).',
    '',
    '  --browser    use browser mode even when Electron is available',
    '  --port N     browser mode: listen on port N (default: the port of the last start)',
    '  --new-token  browser mode: make a new access token',
    '  --open       browser mode: open the link in the system browser',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['port'], booleans: ['browser', 'open', 'new-token'] });
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const port = parsePort(option(args, 'port'));
    const browser = { ...(port !== undefined ? { port } : {}), newToken: flag(args, 'new-token'), open: flag(args, 'open') };
    if (flag(args, 'browser')) return runBrowserMode(browser, io);
    let electron = findElectronBinary(io.env);
    if (!electron.ok && electron.installer) {
      // The electron package fetches its binary on first use (what `require('electron')` would do).
      // Offline it fails at once: then only the reason is printed, never "Downloading…".
      const failed = await downloadElectron(electron.installer, io.env, () => io.stderr.write("Downloading Electron's binary (first start only)…\n"));
      electron = failed === null ? findElectronBinary(io.env) : { ok: false, reason: `Electron's binary could not be downloaded (${failed})` };
    }
    if (!electron.ok) {
      io.stderr.write(
        `Tooldesk cannot open its desktop window: ${electron.reason}. ` +
          'Starting browser mode instead: the same app, served to your browser from this machine only ' +
          '(127.0.0.1, guarded by the token in the link below). To get the desktop window, run `npm start` ' +
          'again with internet access (the binary is downloaded on first start) or set ' +
          'ELECTRON_OVERRIDE_DIST_PATH to a folder holding an Electron binary.\n\n',
      );
      return runBrowserMode(browser, io);
    }
    const built = await buildRenderer(io.stderr, projectRoot, io.env);
    if (built !== 0) return built;
    return run(electron.path, ['.'], io.env);
  },
};
