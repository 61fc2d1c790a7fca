// What an app may say (message bounds, size bounds) and which tools it may call (visibility).
import { describe, expect, it } from 'vitest';
import { boundedAppHeight, createMessageBudget } from '../../../renderer/src/apps/app-message-budget.ts';
import { messageBytes } from '../../../renderer/src/apps/watch-app-messages.ts';
import { appCallRefusal, appOnly } from '../../../electron/runtime/apps/app-visibility.ts';
import { toolUiMeta } from '../../../electron/runtime/sources/mcp/mapping/tool-ui-meta.ts';

describe('message budget', () => {
  const limits = { perSecond: 5, maxMessageBytes: 1000, bytesPerTenSeconds: 3000 };

  it('allows a steady pace and stops a burst over the rate', () => {
    const budget = createMessageBudget(limits);
    for (let i = 0; i < 50; i++) expect(budget.take(10, i * 250).ok).toBe(true);
    const burst = createMessageBudget(limits);
    const verdicts = Array.from({ length: 6 }, (_, i) => burst.take(10, 1000 + i));
    expect(verdicts.slice(0, 5).every((v) => v.ok)).toBe(true);
    expect(verdicts[5]).toEqual({ ok: false, reason: 'it sent more than 5 messages in one second (it may be stuck in a loop)' });
  });

  it('refuses one message over the size bound, and too many bytes over ten seconds', () => {
    expect(createMessageBudget(limits).take(1001, 0)).toEqual({ ok: false, reason: expect.stringContaining('it sent a message of') });
    const budget = createMessageBudget(limits);
    expect(budget.take(1000, 0).ok).toBe(true);
    expect(budget.take(1000, 2000).ok).toBe(true);
    expect(budget.take(1000, 4000).ok).toBe(true);
    expect(budget.take(1000, 6000)).toEqual({ ok: false, reason: expect.stringContaining('in ten seconds') });
    // Ten seconds later the old bytes no longer count.
    const later = createMessageBudget(limits);
    for (const t of [0, 2000, 4000]) later.take(1000, t);
    expect(later.take(1000, 10_001).ok).toBe(true);
  });

  it('measures posted values, binary parts by length, and an unmeasurable one as too big', () => {
    expect(messageBytes({ a: 'xx' })).toBe(JSON.stringify({ a: 'xx' }).length);
    expect(messageBytes(new ArrayBuffer(4096))).toBe(4096);
    expect(messageBytes({ data: new Uint8Array(2000) })).toBe(JSON.stringify({ data: null }).length + 2000);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(messageBytes(cyclic)).toBe(Number.POSITIVE_INFINITY);
    expect(messageBytes(10n)).toBe(Number.POSITIVE_INFINITY);
  });

  it('bounds the inline height the app asks for', () => {
    expect(boundedAppHeight(300.2)).toBe(301);
    expect(boundedAppHeight(1e9)).toBe(720);
    expect(boundedAppHeight(-5)).toBe(48);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '300', undefined]) expect(boundedAppHeight(bad)).toBeUndefined();
  });
});

describe('tool visibility', () => {
  it('reads _meta.ui (and the older flat key); absent visibility is both', () => {
    expect(toolUiMeta({ ui: { resourceUri: 'ui://a/b.html' } })).toEqual({ resourceUri: 'ui://a/b.html', visibility: ['model', 'app'] });
    expect(toolUiMeta({ 'ui/resourceUri': 'ui://old/x.html' })).toEqual({ resourceUri: 'ui://old/x.html', visibility: ['model', 'app'] });
    expect(toolUiMeta({ ui: { visibility: ['app', 'bogus'] } })).toEqual({ visibility: ['app'] });
    expect(toolUiMeta({ ui: { visibility: [] } })).toEqual({ visibility: [] });
    // Not a ui:// resource: no app.
    expect(toolUiMeta({ ui: { resourceUri: 'https://evil.example/app.html' } })).toEqual({ visibility: ['model', 'app'] });
    for (const junk of [undefined, null, 'x', { ui: 'x' }, { ui: { visibility: 'app' } }]) expect(toolUiMeta(junk).resourceUri).toBeUndefined();
  });

  it('hides app-only tools from the model', () => {
    expect(appOnly({ mcp: { ui: { visibility: ['app'] } } })).toBe(true);
    expect(appOnly({ mcp: { ui: { visibility: ['model', 'app'] } } })).toBe(false);
    expect(appOnly({ mcp: {} })).toBe(false);
    expect(appOnly(undefined)).toBe(false);
  });

  it('lets an app call only app-visible tools of its own server', () => {
    const both = { visibility: ['model', 'app'] as Array<'model' | 'app'> };
    expect(appCallRefusal('fx', { server: 'fx', name: 'secret-op', ui: { visibility: ['app'] } })).toBeNull();
    expect(appCallRefusal('fx', { server: 'fx', name: 'plain' })).toBeNull();
    expect(appCallRefusal('fx', { server: 'fx', name: 'model-op', ui: { visibility: ['model'] } })).toContain('not visible to apps');
    expect(appCallRefusal('fx', { server: 'other', name: 'x', ui: both })).toContain("not a tool of this app's server");
    expect(appCallRefusal(undefined, { server: 'fx', name: 'x', ui: both })).toContain("not a tool of this app's server");
    expect(appCallRefusal('fx', { name: 'script_echo' })).toContain("not a tool of this app's server");
    expect(appCallRefusal('fx', undefined)).toBe('no such tool');
  });
});

describe('model context from apps', () => {
  it('keeps the latest text per app, bounded in size and count, marked as written by apps', async () => {
    const { AppModelContext, APP_CONTEXT_MAX_APPS, APP_CONTEXT_MAX_CHARS } = await import('../../../electron/runtime/apps/app-model-context.ts');
    const context = new AppModelContext();
    expect(context.promptText()).toBe('');
    expect(context.set('c1', 'app ui://a', 'first')).toEqual({ chars: 5, truncated: false });
    context.set('c1', 'app ui://a', 'second');
    expect(context.promptText()).toContain('[app ui://a]\nsecond');
    expect(context.promptText()).not.toContain('first');
    expect(context.promptText()).toMatch(/^Context from apps shown in this chat \(written by the apps, not by the user/);
    expect(context.set('c2', 'app ui://b', 'x'.repeat(APP_CONTEXT_MAX_CHARS + 10))).toEqual({ chars: APP_CONTEXT_MAX_CHARS, truncated: true });
    expect(context.promptText()).toContain(`[cut at ${APP_CONTEXT_MAX_CHARS} characters]`);
    for (let i = 0; i < APP_CONTEXT_MAX_APPS + 3; i++) context.set(`n${i}`, `app ${i}`, `t${i}`);
    expect(context.promptText().match(/^\[app /gm)).toHaveLength(APP_CONTEXT_MAX_APPS);
    expect(context.promptText()).not.toContain('[app ui://a]');
    // Empty text clears the app's part.
    for (let i = 0; i < APP_CONTEXT_MAX_APPS + 3; i++) context.set(`n${i}`, `app ${i}`, '');
    expect(context.promptText()).toBe('');
  });
});
