// Browser mode as a long-running command: build the renderer if needed, start the host and the
// loopback server, print the URL (token included), stop cleanly on Ctrl+C / SIGTERM.
import type { CliIO } from '../command.ts';
import { createRuntime } from '../../runtime/create-runtime.ts';
import { startBrowserServer } from '../../runtime/host/transport/server.ts';
import { toolDeskHome } from '../../runtime/paths.ts';
import { openCliSecrets } from '../cli-settings.ts';
import { VERSION } from '../version.ts';
import { openInBrowser } from './open-browser.ts';
import { chooseBrowserEndpoint, saveBrowserEndpoint } from './browser-endpoint.ts';
import { buildRenderer, rendererBuildState, rendererOutDir } from './renderer-build.ts';

export interface BrowserModeOptions {
  /** Absent: the port of the last run (any free port the first time). */
  port?: number;
  /** A new access token instead of the remembered one (open tabs must use the new link). */
  newToken?: boolean;
  open: boolean;
  /** Rebuild out/renderer when stale (default true). */
  build?: boolean;
}

export async function runBrowserMode(options: BrowserModeOptions, io: CliIO): Promise<number> {
  if (options.build !== false) {
    const state = rendererBuildState();
    if (!state.fresh) {
      io.stderr.write(`Building the app first (${state.reason})…\n`);
      const code = await buildRenderer(io.stderr, undefined, io.env);
      if (code !== 0) {
        io.stderr.write('The build failed (see above); fix it or run `npm run build`, then try again.\n');
        return code;
      }
    }
  }
  const home = toolDeskHome(io.env);
  const runtime = await createRuntime({
    home,
    secrets: openCliSecrets(io),
    sessionSecretsFallback: true,
    watchSettings: true,
    // MCP: OAuth sign-in and URL-mode elicitation (after the user agreed in the chat) open the browser.
    tools: { watch: true, keyEndpoint: true, openUrl: openInBrowser },
    log: (message) => io.stderr.write(`tooldesk serve: ${message}\n`),
  });
  let server;
  let host;
  try {
    host = await runtime.host({ browserMode: true, version: VERSION });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  // The schedules of this home run here unless another instance owns them (then this one stands by).
  await (await runtime.scheduler()).start();
  const endpoint = chooseBrowserEndpoint(home, options);
  const start = (port: number) =>
    startBrowserServer({
      host: host!,
      rendererDir: rendererOutDir(),
      port,
      token: endpoint.token,
      onRefused: (reason) => io.stderr.write(`tooldesk serve: refused a connection: ${reason}\n`),
    });
  try {
    try {
      server = await start(endpoint.port);
    } catch (error) {
      // The remembered port is someone else's now: any free port (open tabs need the new link).
      if (!endpoint.remembered || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      server = await start(0);
      io.stderr.write(`Port ${endpoint.port} (used last time) is taken now; serving on ${server.port} instead.\n`);
    }
  } catch (error) {
    await runtime.close();
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr.write(
      code === 'EADDRINUSE'
        ? `Port ${endpoint.port} is already in use; pick another with --port N (or --port 0 for any free port).\n`
        : `Could not start the server: ${(error as Error).message}\n`,
    );
    return 1;
  }
  const notSaved = saveBrowserEndpoint(home, { port: server.port, token: server.token });
  if (notSaved) io.stderr.write(`warning: ${notSaved}\n`);
  for (const warning of host.warnings) io.stderr.write(`warning: ${warning}\n`);
  io.stdout.write(
    `Tooldesk is running in browser mode (data in ${home}). Open:\n\n  ${server.url}\n\n` +
      'The token in this link is the key to your Tooldesk: anyone with it can run your tools. Ctrl+C stops.\n',
  );
  if (options.open && !(await openInBrowser(server.url))) io.stderr.write('Could not open a browser; open the link above yourself.\n');

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.stderr.write('Stopping…\n');
  await server.close();
  await runtime.close();
  return 0;
}
