// `node --import ./test/support/trace-modules.mjs …` appends every module the process loads (ES
// modules through a load hook, CommonJS through require) to the file TOOLDESK_TRACE_MODULES names,
// one URL or path a line: what a test checks to prove a command loaded no more than it should.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const file = process.env.TOOLDESK_TRACE_MODULES;
if (file) {
  register('./trace-modules-hooks.mjs', import.meta.url, { data: { file } });
  const load = Module._load;
  Module._load = function traced(request, parent, isMain) {
    const loaded = load.apply(this, [request, parent, isMain]);
    try {
      appendFileSync(file, `${Module._resolveFilename(request, parent, isMain)}\n`);
    } catch {
      // a built-in or an unresolvable name: nothing on disk to report
    }
    return loaded;
  };
}
