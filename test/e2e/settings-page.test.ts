// Issue 36 §2: Settings is a page of its own, with the section list on the left. At 800×600 every
// section is reachable from the list and usable: its fields have room, nothing is cut at the
// right edge (a wide table scrolls sideways in its own box), and axe-core finds no serious or
// critical violation in light or dark.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { seriousViolations } from './support/axe.ts';
import { focusedTestId, lastCall, openPanel, send, waitForStatus } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';

const { page } = await startFileApp({ settings: ECHO_ASKS });

/**
 * Elements of the Settings column that reach past its right edge with no box that scrolls them
 * sideways: what a user could not see or reach.
 */
const cutAtTheRight = (p: Page) =>
  p.getByTestId('settings-body').evaluate((body) => {
    const edge = body.getBoundingClientRect().right - parseFloat(getComputedStyle(body).paddingRight) + 1;
    const cut: string[] = [];
    if (body.scrollWidth > body.clientWidth + 1) cut.push(`the column itself scrolls sideways (${body.scrollWidth} > ${body.clientWidth})`);
    for (const el of Array.from(body.querySelectorAll<HTMLElement>('*'))) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.right <= edge) continue;
      let scroller: HTMLElement | null = el.parentElement;
      while (scroller && scroller !== body && !(/(auto|scroll)/.test(getComputedStyle(scroller).overflowX) && scroller.scrollWidth > scroller.clientWidth)) scroller = scroller.parentElement;
      if (scroller === body || !scroller) cut.push(`${el.tagName.toLowerCase()}${el.getAttribute('aria-label') ? `[${el.getAttribute('aria-label')}]` : ''} ends at ${Math.round(rect.right)} > ${Math.round(edge)}`);
    }
    return cut.slice(0, 10);
  });

const width = (p: Page, label: string) => p.getByLabel(label, { exact: true }).evaluate((el) => Math.round(el.getBoundingClientRect().width));

describe('Settings as a page at 800×600', () => {
  it('lists its sections on the left; each entry scrolls its section to the top and takes the keyboard there', async () => {
    // An audit entry, so the audit table has rows.
    await send(page, 'call script_echo {"text": "for the audit log"}');
    await page.getByTestId('execution-approval').getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await page.setViewportSize({ width: 800, height: 600 });
    await openPanel(page, 'settings');
    // A page in the chat's place, not a side panel beside it.
    const pageBox = (await page.getByTestId('settings-panel').boundingBox())!;
    expect(pageBox.width).toBeGreaterThanOrEqual(780);
    expect(await page.getByTestId('composer').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('settings-heading');

    const nav = page.getByTestId('settings-nav');
    const entries = await nav.getByRole('button').allTextContents();
    // Schedules (#35) joined the list when the branches met; Skills (#34) after Rules.
    expect(entries).toEqual(['Providers', 'Tool groups', 'MCP servers', 'Rules', 'Skills', 'Tool sets', 'Schedules', 'Audit log', 'Tool folders', 'Sandbox', 'Limits', 'Python']);
    await page.getByTestId('tool-sets-section').getByRole('button', { name: '+ Add tool set' }).click();
    await page.getByTestId('rules-section').getByRole('button', { name: '+ Add rule' }).click();
    for (const name of entries) {
      await nav.getByRole('button', { name, exact: true }).click();
      const section = page.locator(`.settings-anchor:has(h3:text-is("${name}"))`);
      // At the top of the column, or (the last ones) wholly in view with the column at its end.
      const place = await section.evaluate((el) => {
        const body = el.closest<HTMLElement>('[data-testid="settings-body"]')!;
        const [r, b] = [el.getBoundingClientRect(), body.getBoundingClientRect()];
        return { atTop: Math.abs(r.top - b.top) < 16, inViewAtEnd: r.top >= b.top && r.bottom <= b.bottom + 1 && body.scrollTop + body.clientHeight >= body.scrollHeight - 2 };
      });
      expect(place.atTop || place.inViewAtEnd, `${name}: ${JSON.stringify(place)}`).toBe(true);
      expect(await nav.getByRole('button', { name, exact: true }).getAttribute('aria-current'), name).toBe('true');
      expect(await section.evaluate((el) => el.contains(document.activeElement)), name).toBe(true);
      expect(await cutAtTheRight(page), name).toEqual([]);
    }
  });

  it('the fields of rules and tool sets have room, and the audit table scrolls sideways instead of being cut', async () => {
    expect(await width(page, 'Tool set 1 groups')).toBeGreaterThanOrEqual(200);
    expect(await width(page, 'Tool set 1 tools')).toBeGreaterThanOrEqual(200);
    expect(await width(page, 'Rule 1 tests')).toBeGreaterThanOrEqual(200);
    const audit = page.getByTestId('audit-scroll');
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Audit log' }).click();
    await page.getByTestId('audit-entry').first().waitFor();
    // Every column is there, the last one reachable by scrolling the table's own box (keyboard too).
    const result = audit.locator('th').last();
    expect(await result.textContent()).toBe('Result');
    await audit.focus();
    await audit.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    const [cell, box] = await Promise.all([result.boundingBox(), audit.boundingBox()]);
    expect(cell!.x + cell!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
    await screenshot(page, 'e2e-settings-page-800');
  });

  it('axe-core (light and dark): no serious or critical violation with any section in view', async () => {
    const found: Record<string, string[]> = {};
    for (const name of await page.getByTestId('settings-nav').getByRole('button').allTextContents()) {
      await page.getByTestId('settings-nav').getByRole('button', { name, exact: true }).click();
      const violations = await seriousViolations(page);
      if (violations.length) found[name] = violations;
    }
    expect(found).toEqual({});
  });

  it('Esc leaves the page: the chat is back, the keyboard on the Settings tab', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
    expect(await page.getByTestId('composer').isVisible()).toBe(true);
    expect(await focusedTestId(page)).toBe('tab-settings');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
