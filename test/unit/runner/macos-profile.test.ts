import { describe, expect, it } from 'vitest';
import { buildMacosProfile, sbplString, type MacosProfilePlan } from '../../../electron/runtime/runner/macos-profile.ts';

const plan = (over: Partial<MacosProfilePlan> = {}): MacosProfilePlan => ({
  toolDir: '/Users/a/tools/t', writableToolDir: false, workDir: '/Users/a/work', homeDir: '/Users/a', allowHomeWrite: false,
  tmpDir: '/private/var/folders/x/T', network: true, hidePaths: ['/Users/a/.ssh', '/Users/a/.aws'], patternRoots: ['/Users/a/tools/t', '/Users/a/work'], ...over,
});

describe('buildMacosProfile', () => {
  it('denies writes except the working folder and the temporary folder, and hides credentials', () => {
    const text = buildMacosProfile(plan());
    expect(text.startsWith('(version 1)\n(allow default)\n')).toBe(true);
    expect(text).toContain('(deny file-write*)\n');
    const allow = text.split('\n').find((l) => l.startsWith('(allow file-write*'))!;
    expect(allow).toContain('(subpath "/Users/a/work")');
    expect(allow).toContain('(subpath "/private/var/folders/x/T")');
    expect(allow).not.toContain('"/Users/a/tools/t"');
    expect(allow).not.toContain('(subpath "/Users/a")');
    expect(text).toContain('(deny file-read* file-write* (subpath "/Users/a/.ssh"))');
    expect(text).toContain('(deny file-read* file-write* (subpath "/Users/a/.aws"))');
    expect(text).not.toContain('(deny network*)');
  });

  it('hides .env, .env.*, *.pem, *.key, *.p12, *.pfx inside the tool and working folders by regex', () => {
    const text = buildMacosProfile(plan());
    expect(text).toContain('(regex #"^/Users/a/work/(.*/)?\\.env(\\.[^/]*)?$" #"^/Users/a/work/(.*/)?[^/]*\\.(pem|key|p12|pfx)$")');
    const rx = /#"\^\/Users\/a\/work\/\(\.\*\/\)\?\[\^\/\]\*\\\.\(pem\|key\|p12\|pfx\)\$"/;
    expect(text).toMatch(rx);
    // The generated regexes behave as intended (POSIX ERE ~ JS for these constructs).
    const env = new RegExp('^/Users/a/work/(.*/)?\\.env(\\.[^/]*)?$');
    expect(['/Users/a/work/.env', '/Users/a/work/x/.env.local'].every((p) => env.test(p))).toBe(true);
    expect(['/Users/a/work/env', '/Users/a/work/.envrc', '/Users/a/other/.env'].some((p) => env.test(p))).toBe(false);
  });

  it('opens the tool folder and the home for writes only when asked, and denies network on network: false', () => {
    const text = buildMacosProfile(plan({ writableToolDir: true, allowHomeWrite: true, network: false }));
    const allow = text.split('\n').find((l) => l.startsWith('(allow file-write*'))!;
    expect(allow).toContain('(subpath "/Users/a/tools/t")');
    expect(allow).toContain('(subpath "/Users/a")');
    expect(text).toContain('(deny network*)');
  });

  it('escapes quotes and backslashes in paths and literal regex characters', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    const text = buildMacosProfile(plan({ workDir: '/Users/a/my.proj (1)', patternRoots: ['/Users/a/my.proj (1)'] }));
    expect(text).toContain('#"^/Users/a/my\\.proj \\(1\\)/(.*/)?');
  });
});

describe('buildMacosProfile: protected paths', () => {
  it('denies writes to the protected folders after the allow (Seatbelt: the last match wins), and hides the sessions', () => {
    const text = buildMacosProfile({
      ...plan(),
      workDir: '/Users/a/proj',
      protectedPaths: ['/Users/a/proj/tools', '/Users/a/Library/Application Support/Tooldesk'],
      hideAbsolute: ['/Users/a/Library/Application Support/Tooldesk/sessions'],
    });
    const lines = text.split('\n');
    const allow = lines.findIndex((l) => l.startsWith('(allow file-write*'));
    const deny = lines.findIndex((l) => l.startsWith('(deny file-write* (subpath "/Users/a/proj/tools")'));
    expect(deny).toBeGreaterThan(allow);
    expect(lines[deny]).toContain('(subpath "/Users/a/Library/Application Support/Tooldesk")');
    expect(text).toContain('(deny file-read* file-write* (subpath "/Users/a/Library/Application Support/Tooldesk/sessions"))');
  });
});
