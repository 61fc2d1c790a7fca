// The CSP an app runs under (from `_meta.ui.csp`) and the permissions delegated to its frames.
import { describe, expect, it } from 'vitest';
import { buildAppCsp } from '../../../electron/runtime/apps/app-csp.ts';
import { allowAttribute, requestedPermissions } from '../../../electron/runtime/apps/app-permissions.ts';

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));

describe('buildAppCsp', () => {
  it('gives no network at all when the resource declares nothing, and never self', () => {
    for (const given of [undefined, null, {}, 'connect everything', [1, 2]]) {
      const csp = buildAppCsp(given);
      expect(directive(csp.policy, 'default-src')).toBe("default-src 'none'");
      expect(directive(csp.policy, 'connect-src')).toBe("connect-src 'none'");
      expect(directive(csp.policy, 'frame-src')).toBe("frame-src 'none'");
      expect(directive(csp.policy, 'script-src')).toBe("script-src 'unsafe-inline'");
      expect(directive(csp.policy, 'form-action')).toBe("form-action 'none'");
      expect(csp.policy).not.toContain("'self'");
      expect(csp.policy).not.toContain('unsafe-eval');
      expect(csp.network).toEqual([]);
    }
  });

  it('opens exactly the declared origins in their directive and says so', () => {
    const csp = buildAppCsp({ connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'], resourceDomains: ['https://*.cdn.example.com'], frameDomains: ['https://player.example.com/'], baseUriDomains: ['https://base.example.com'] });
    expect(directive(csp.policy, 'connect-src')).toBe('connect-src https://api.example.com wss://live.example.com:8443');
    expect(directive(csp.policy, 'script-src')).toBe("script-src 'unsafe-inline' https://*.cdn.example.com");
    expect(directive(csp.policy, 'img-src')).toBe('img-src data: blob: https://*.cdn.example.com');
    expect(directive(csp.policy, 'frame-src')).toBe('frame-src https://player.example.com');
    expect(directive(csp.policy, 'base-uri')).toBe('base-uri https://base.example.com');
    expect(csp.network).toEqual([
      'connect https://api.example.com',
      'connect wss://live.example.com:8443',
      'load scripts, styles and media from https://*.cdn.example.com',
      'frame https://player.example.com',
      'base URI https://base.example.com',
    ]);
    expect(csp.dropped).toEqual([]);
  });

  it('drops what could inject a directive or widen the policy, and reports each', () => {
    const hostile = ["'unsafe-eval'", 'https://a.example.com; script-src *', '*', 'data:', 'javascript:alert(1)', 'https://ok.example.com https://other.example', 'file:///etc', 'http://', 42, 'https://ok.example.com'];
    const csp = buildAppCsp({ connectDomains: hostile, resourceDomains: 'https://x.example.com' });
    expect(directive(csp.policy, 'connect-src')).toBe('connect-src https://ok.example.com');
    expect(directive(csp.policy, 'script-src')).toBe("script-src 'unsafe-inline'");
    expect(csp.policy.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
    expect(csp.dropped).toHaveLength(hostile.length - 1 + 1);
    expect(csp.dropped.at(-1)).toBe('resourceDomains: not a list');
    expect(csp.dropped[0]).toContain("is not an origin like https://api.example.com");
  });

  it('keeps at most 32 origins per field', () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example.com`);
    const csp = buildAppCsp({ connectDomains: many });
    expect(directive(csp.policy, 'connect-src')!.split(' ')).toHaveLength(33);
    expect(csp.dropped).toEqual(['connectDomains: more than 32 entries']);
  });
});

describe('app permissions', () => {
  it('maps the spec names to Permissions Policy features, only once granted', () => {
    const requested = requestedPermissions({ microphone: {}, camera: {}, clipboardWrite: {}, geolocation: {}, usb: {}, __proto__: { camera: {} } });
    expect(requested).toEqual(['camera', 'microphone', 'geolocation', 'clipboardWrite']);
    expect(allowAttribute(requested, true)).toBe('camera; microphone; geolocation; clipboard-write');
    expect(allowAttribute(requested, false)).toBe('');
  });

  it('asks for nothing when the value is not an object', () => {
    for (const given of [undefined, null, 'camera', ['camera'], 1]) expect(requestedPermissions(given)).toEqual([]);
    expect(requestedPermissions(Object.create({ camera: {} }))).toEqual([]);
  });
});
