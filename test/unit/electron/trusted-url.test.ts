import { describe, expect, it } from 'vitest';
import { electronContentSecurityPolicy, isAppUrl, isExternalLink } from '../../../electron/main/trusted-url.ts';
import { securityHeaders } from '../../../electron/runtime/host/transport/static-files.ts';

const location = { rendererFile: '/opt/tooldesk/out/renderer/index.html' };

describe('which pages the Electron window trusts', () => {
  it('trusts only the built renderer file, or the dev server origin in development', () => {
    expect(isAppUrl('file:///opt/tooldesk/out/renderer/index.html', location)).toBe(true);
    expect(isAppUrl('file:///opt/tooldesk/out/renderer/index.html#/settings', location)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', location)).toBe(false);
    expect(isAppUrl('file:///opt/tooldesk/out/renderer/other.html', location)).toBe(false);
    expect(isAppUrl('https://evil.example/', location)).toBe(false);
    expect(isAppUrl('not a url', location)).toBe(false);
    const dev = { ...location, devServerUrl: 'http://localhost:5173/' };
    expect(isAppUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
  });

  it('opens only web and mail links externally', () => {
    expect(isExternalLink('https://example.com')).toBe(true);
    expect(isExternalLink('mailto:a@b.c')).toBe(true);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
    expect(isExternalLink('smb://host/share')).toBe(false);
  });

  it('has a CSP without inline or remote script', () => {
    const csp = electronContentSecurityPolicy();
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("object-src 'none'");
    expect(electronContentSecurityPolicy('http://localhost:5173')).toContain('connect-src \'self\' http://localhost:5173 ws://localhost:5173');
  });

  it('gives browser mode the window\'s CSP, with the API socket added to connect-src', () => {
    const browserMode = securityHeaders(4123)['Content-Security-Policy'];
    expect(browserMode).toBe(electronContentSecurityPolicy().replace("connect-src 'self'", "connect-src 'self' ws://127.0.0.1:4123 ws://localhost:4123"));
  });
});
