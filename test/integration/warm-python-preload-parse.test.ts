// Issue 38: the fork-server's parser (resources/python/preload.py) finds the top-level imports of
// every Python format without running them — module tools, script.py, a three-layer execution.py
// template — and checks where each resolves. Its report mode, as `tools check` runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helperScript } from '../../electron/runtime/sources/process/helper-scripts.ts';
import { realPython } from '../support/real-python.ts';

type Report = Array<{ folder: string; preloaded: string[]; leftOut: Array<{ name: string; why: string }> }>;

function report(requests: unknown[]): Report {
  return JSON.parse(execFileSync(realPython()!, [helperScript.pythonPreload()], { input: JSON.stringify(requests), encoding: 'utf8', timeout: 60_000 })) as Report;
}

describe.skipIf(!realPython() || process.platform !== 'linux')('preload.py: what a folder imports', () => {
  it('reads top-level imports only (if/try included, functions and relative imports not), templates too, and runs nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-preload-parse-'));
    const marker = join(dir, 'ran');
    writeFileSync(join(dir, 'tool.py'), `import json, numpy as np\nfrom . import sibling\nfrom requests.adapters import HTTPAdapter\ntry:\n    import no_such_module_td\nexcept ImportError:\n    pass\nif True:\n    import email.mime.text\nopen(${JSON.stringify(marker)}, 'w')\n\ndef later():\n    import csv\n`);
    writeFileSync(join(dir, 'execution.py'), 'import decimal\nvalue = {amount}\nprint({{"x": value}})\n');
    const [r] = report([{ folder: dir, files: [join(dir, 'tool.py'), join(dir, 'execution.py')], forbid: [dir], maxMs: 5000 }]);
    expect(r!.preloaded).toEqual(['numpy', 'requests.adapters', 'email.mime.text', 'decimal']);
    expect(r!.leftOut).toEqual([{ name: 'no_such_module_td', why: 'not installed for this interpreter' }]);
    expect(() => execFileSync('test', ['-e', marker])).toThrow();
  });

  it('a module in a forbidden folder, or shadowed by one, is left out before anything imports it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-preload-parse-'));
    writeFileSync(join(dir, 'tool.py'), 'import numpy\nimport requests\n');
    writeFileSync(join(dir, 'requests.py'), 'raise SystemExit("must never be imported")\n');
    const [r] = report([{ folder: dir, files: [join(dir, 'tool.py')], forbid: [dir, '/tmp'], maxMs: 5000 }]);
    expect(r!.preloaded).toEqual(['numpy']);
    expect(r!.leftOut).toEqual([{ name: 'requests', why: `a tool or writable folder has its own (${dir})` }]);
  });
});
