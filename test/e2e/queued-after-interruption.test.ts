// Issue 36 §3, in Chromium: a message typed while the runtime is down in the middle of a turn is
// queued; once the tab is back the turn shows Interrupted, and the message waits for the user —
// the notice says so — until they press Send (it goes at once) or Continue / Retry (it goes once
// their answer is done). It is never stuck and never sent twice.
import { describe, expect, it } from 'vitest';
import { fakeTurn } from '../support/fake-openai-server.ts';
import { startFileApp } from './support/e2e-app.ts';
import { startAppServer } from './support/app-server.ts';
import { e2eScript } from './support/fake-model.ts';
import { newChat, send } from './support/chat-page.ts';
import { seriousViolations } from './support/axe.ts';
import { screenshot } from './support/screenshots.ts';

const slowDone = new Set<string>();
const app = await startFileApp({
  fake: {
    script: (request, turn) => {
      const said = String(request.body.messages.at(-1)?.content ?? '');
      if (said.startsWith('slowly ') && !slowDone.has(said)) {
        slowDone.add(said);
        return fakeTurn.text('A long answer that is still streaming when the runtime stops…', { deltaChars: 1, delayMs: 200 });
      }
      if (said.startsWith('slowly ')) return fakeTurn.text(`The whole answer to ${said}.`);
      return e2eScript(request, turn);
    },
  },
});
const { page } = app;
const interrupted = page.getByTestId('turn-interrupted');
const answer = (text: string) => page.getByTestId('assistant-message').filter({ hasText: text });
const sentTimes = (text: string) => app.fake.chatRequests().filter((r) => JSON.stringify(r.body.messages.at(-1)).includes(text)).length;

/** A turn cut off by the runtime stopping, a message typed meanwhile, the runtime back: Interrupted, the message held. */
async function interruptWithQueued(prompt: string, typed: string): Promise<void> {
  await newChat(page);
  await send(page, prompt);
  await page.locator('[data-testid="assistant-message"][data-streaming="true"]').waitFor({ timeout: 20_000 });
  await app.server.stop();
  await page.getByText(/connecting…|disconnected/).waitFor();
  await send(page, typed);
  await page.getByTestId('queued-message').filter({ hasText: typed }).waitFor();
  // npm start again: same port and token, so this tab reconnects by itself.
  app.server = await startAppServer({ home: app.home, port: 'remembered' });
  await interrupted.waitFor({ timeout: 30_000 });
}

describe('a message queued when the turn was interrupted', () => {
  it('waits for the user, the notice says so; Send (empty box) sends it at once, once', async () => {
    await interruptWithQueued('slowly one', 'typed while down');
    await expect(page.getByTestId('interrupted-queued').textContent()).resolves.toBe(
      'Your message waiting below is not sent yet: Send sends it now, instead of continuing; after Continue or Retry it is sent once their answer is done.',
    );
    await expect(page.getByTestId('queued-message').textContent()).resolves.toContain('waits for you');
    await page.waitForTimeout(1500);
    expect(sentTimes('typed while down')).toBe(0);
    await screenshot(page, 'e2e-queued-after-interruption');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('send').click();
    await answer('You said: typed while down').waitFor({ timeout: 20_000 });
    await interrupted.waitFor({ state: 'detached' });
    expect(await page.getByTestId('queued-message').count()).toBe(0);
    expect(sentTimes('typed while down')).toBe(1);
  });

  it('Continue: the model goes on first, then the message is sent by itself', async () => {
    await interruptWithQueued('slowly two', 'after the answer');
    await interrupted.getByRole('button', { name: 'Continue' }).click();
    await answer('You said: after the answer').waitFor({ timeout: 30_000 });
    const order = await page.locator('[data-testid="assistant-message"], [data-testid="row-user"]').allTextContents();
    expect(order.findIndex((t) => t.includes('after the answer'))).toBeGreaterThan(order.findIndex((t) => t.includes('streaming when the runtime stops')));
    expect(sentTimes('after the answer')).toBe(1);
  });

  it('typing another message and pressing Send sends the held one first, then the new one', async () => {
    await interruptWithQueued('slowly three', 'first in line');
    await send(page, 'second in line');
    await answer('You said: second in line').waitFor({ timeout: 30_000 });
    const users = await page.getByTestId('row-user').allTextContents();
    expect(users.findIndex((t) => t.includes('first in line'))).toBeLessThan(users.findIndex((t) => t.includes('second in line')));
    expect(sentTimes('first in line')).toBe(1);
  });
});
