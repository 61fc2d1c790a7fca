import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheLocations } from '../../../electron/runtime/sources/cached-modules/cache.ts';
import { readPermission, timeoutOf } from '../../../electron/runtime/sources/cached-modules/permissions.ts';

describe('readPermission', () => {
  it('maps the legacy sy-f-misc keys; the modern ones win', () => {
    expect(readPermission({ permissionLevel: 'public' }).permission).toEqual({ executionPolicy: 'auto' });
    expect(readPermission({ permissionLevel: 'moderate' }).permission).toEqual({ executionPolicy: 'ask-once' });
    expect(readPermission({ permissionLevel: 'sensitive' }).permission).toEqual({ executionPolicy: 'ask-always' });
    expect(readPermission({ requireExecutionApproval: true, requireResultApproval: true }).permission).toEqual({ executionPolicy: 'ask-always', resultApprovalPolicy: 'always' });
    expect(readPermission({ requireExecutionApproval: false, requireResultApproval: false }).permission).toEqual({ executionPolicy: 'auto', resultApprovalPolicy: 'never' });
    expect(readPermission({ executionPolicy: 'ask-once', permissionLevel: 'public', resultApprovalPolicy: 'on-error', requireResultApproval: true }).permission).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'on-error' });
  });

  it('reports values it does not understand and ignores them', () => {
    const read = readPermission({ executionPolicy: 'sometimes', permissionLevel: 'secret', resultApprovalPolicy: 1 });
    expect(read.permission).toEqual({});
    expect(read.problems).toHaveLength(3);
    expect(readPermission(null)).toEqual({ permission: {}, problems: [] });
  });

  it('reads timeouts in seconds', () => {
    const diagnostics: unknown[] = [];
    expect(timeoutOf(2.5, 'f', 3, [])).toEqual({ timeoutMs: 2500 });
    expect(timeoutOf(undefined, 'f', 3, [])).toEqual({});
    expect(timeoutOf('10', 'f', 3, diagnostics as never)).toEqual({});
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'bad-timeout', line: 3 })]);
  });
});

describe('cacheLocations', () => {
  it('puts the cache beside the script, then mirrors its folder under the cache dir', () => {
    const spec = { type: 'PythonModule' as const, fileName: 'weather.tool.json', parserVersion: 'x', cacheDir: '/home/u/.config/Tooldesk/cache' };
    expect(cacheLocations('/srv/tools/weather.py', spec)).toEqual(['/srv/tools/weather.tool.json', join('/home/u/.config/Tooldesk/cache', 'modules', 'srv', 'tools', 'weather.tool.json')]);
    // `..` in the script path is resolved first: the mirror cannot escape the cache folder.
    expect(cacheLocations('/srv/tools/../../etc/weather.py', spec)[1]).toBe(join('/home/u/.config/Tooldesk/cache', 'modules', 'etc', 'weather.tool.json'));
  });
});
