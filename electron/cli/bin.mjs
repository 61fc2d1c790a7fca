#!/usr/bin/env node
// The `tooldesk` command. Runs the bundle in out/cli (built by `npm install`), rebuilt first when
// a source changed since, so it works right after `npm install` with no build step to remember.
// TOOLDESK_FROM_SOURCES=1 runs the TypeScript sources through tsx instead (tests, development);
// so does a checkout where out/cli cannot be written.
import { buildCliBundle, cliBundleState } from './cli-bundle.mjs';

// `tooldesk … | head` closes the pipe early: that is the reader's choice, not our failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

async function fromSources() {
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

async function fromBundle() {
  const state = cliBundleState();
  if (state.fresh) return import(state.entry);
  try {
    return import((await buildCliBundle()).entry);
  } catch (error) {
    process.stderr.write(`tooldesk: could not build the command line (${error.message.split('\n')[0]}); running it from the sources, slower.\n`);
    return fromSources();
  }
}

const { main } = await (process.env.TOOLDESK_FROM_SOURCES === '1' ? fromSources() : fromBundle());
process.exitCode = await main(process.argv.slice(2));
