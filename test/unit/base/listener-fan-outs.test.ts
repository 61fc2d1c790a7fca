// Every listener fan-out catches: a listener that throws never stops the others, nor the thing
// that fired (a server's log keeps its line; a settings write stays written).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerLog } from '../../../electron/runtime/sources/mcp/connection/server-log.ts';
import { jsonFileBackend } from '../../../electron/runtime/store/json-file-backend.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('listener fan-outs', () => {
  it("a server log's throwing listener: the line is kept and the next listener hears it", () => {
    const log = new ServerLog();
    const heard: string[] = [];
    log.onLine(() => {
      throw new Error('listener bug');
    });
    log.onLine((line, source) => heard.push(`${source}: ${line}`));
    expect(() => log.add('started')).not.toThrow();
    expect(heard).toEqual(['note: started']);
    expect(log.lines()).toContain('started');
  });

  it("a settings file's throwing listener: the write stays and the next listener hears it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-fanout-'));
    dirs.push(dir);
    const backend = jsonFileBackend({ cwd: dir, configName: 'settings', watch: false });
    let heard = 0;
    backend.onDidAnyChange(() => {
      throw new Error('listener bug');
    });
    backend.onDidAnyChange(() => heard++);
    expect(() => (backend.store = { a: 1 })).not.toThrow();
    expect(heard).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({ a: 1 });
  });
});
