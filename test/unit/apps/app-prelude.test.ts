import { describe, expect, it } from 'vitest';
import { appPermissionsPolicy } from '../../../electron/runtime/apps/app-permissions.ts';
import { APP_PRELUDE_SCRIPT, withAppPrelude } from '../../../electron/runtime/apps/app-prelude.ts';

describe('withAppPrelude', () => {
  it('puts the prelude before any script of the app, after a leading doctype', () => {
    const html = '<!doctype html><html><head><script>app()</script></head></html>';
    const out = withAppPrelude(html);
    expect(out.startsWith(`<!doctype html>${APP_PRELUDE_SCRIPT}`)).toBe(true);
    expect(out.indexOf(APP_PRELUDE_SCRIPT)).toBeLessThan(out.indexOf('app()'));
    expect(withAppPrelude('<script>app()</script>').startsWith(APP_PRELUDE_SCRIPT)).toBe(true);
    expect(withAppPrelude('<!-- c --><!DOCTYPE html><p>').startsWith(`<!-- c --><!DOCTYPE html>${APP_PRELUDE_SCRIPT}`)).toBe(true);
  });

  it('removes the WebRTC interfaces when run (and names them all)', () => {
    for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) expect(APP_PRELUDE_SCRIPT).toContain(name);
  });
});

describe('appPermissionsPolicy', () => {
  it('denies every powerful feature but those granted in the frame\'s allow attribute', () => {
    const none = appPermissionsPolicy('');
    expect(none).toContain('camera=()');
    expect(none).toContain('microphone=()');
    expect(none).toContain('display-capture=()');
    const camera = appPermissionsPolicy('camera; clipboard-write');
    expect(camera).toContain('camera=*');
    expect(camera).toContain('clipboard-write=*');
    expect(camera).toContain('microphone=()');
  });
});
