// Issue 36 §7 in Settings, in Chromium at 800×600 on a machine without a keychain: a long MCP
// server name stays on one line (ending in "…", whole in its tooltip) instead of wrapping
// mid-word; the bundle form says before it is filled that its secret needs a keychain.
import { afterAll, describe, expect, it } from 'vitest';
import { acmeManifest, packBundle } from '../support/pack-mcpb.ts';
import { removeScratch } from '../support/run-cli.ts';
import { startFileApp } from './support/e2e-app.ts';
import { openPanel } from './support/chat-page.ts';

const LONG = 'io.github.modelcontextprotocol.server-filesystem-extended-edition';
const { page } = await startFileApp({
  // No session bus: the keychain probe fails as on a machine that has none.
  env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
  settings: { mcpServers: { [LONG]: { command: 'node', args: ['server.js'] }, short: { command: 'node', args: ['server.js'] } } as never },
});
afterAll(() => removeScratch());

const section = () => page.getByTestId('mcp-section');
const row = (name: string) => section().locator(`[data-testid="mcp-server"][data-server="${name}"]`);

describe('Settings → MCP servers at 800×600', () => {
  it('a long server name stays on one line, cut with "…", whole in its tooltip', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await openPanel(page, 'settings');
    await page.getByTestId('settings-nav').getByRole('button', { name: 'MCP servers', exact: true }).click();
    const name = row(LONG).getByTestId('mcp-name');
    await name.waitFor();
    expect(await name.getAttribute('title')).toBe(LONG);
    const shape = await name.evaluate((el) => {
      const style = getComputedStyle(el);
      const range = document.createRange();
      range.selectNodeContents(el);
      // One line box for the name's text, and it is cut with an ellipsis rather than wrapped.
      const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
      return { lines: lines.size, cut: el.scrollWidth > el.clientWidth, ellipsis: style.textOverflow };
    });
    expect(shape).toEqual({ lines: 1, cut: true, ellipsis: 'ellipsis' });
    // The short name is not cut, and each row's controls stay on the row's first line.
    expect(await row('short').getByTestId('mcp-name').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(false);
    const sameLine = await row(LONG).locator('.row').first().evaluate((el) => {
      const tops = Array.from(el.children).map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0).map((r) => r.top + r.height / 2);
      return Math.max(...tops) - Math.min(...tops) < 12;
    });
    expect(sameLine).toBe(true);
  });

  it('without a keychain the bundle form says first that its secret cannot be kept, and does not offer Install', async () => {
    const bundle = packBundle(acmeManifest('1.0.0'));
    await section().getByTestId('mcp-bundle-file').setInputFiles(bundle);
    const view = section().getByTestId('mcp-bundle');
    await view.waitFor({ timeout: 30_000 });
    const notice = view.getByTestId('mcp-bundle-no-keychain');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('API key is kept in the keychain only, and this machine has none (see Settings → Runtime). This bundle cannot be installed here until a keychain is available.');
    // Said before the fields, not after Install.
    const [noticeBox, nameBox] = await Promise.all([notice.boundingBox(), view.getByTestId('mcp-bundle-name').boundingBox()]);
    expect(noticeBox!.y).toBeLessThan(nameBox!.y);
    expect(await view.locator('[data-key="api_key"] input').isDisabled()).toBe(true);
    expect(await view.getByTestId('mcp-bundle-install').isDisabled()).toBe(true);
    await view.getByTestId('mcp-bundle-cancel').click();
    await view.waitFor({ state: 'detached' });
  });
});
