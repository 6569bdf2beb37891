import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE } from '../../src/features/events/sockets/event-sockets.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { launchChromium, screenshotPath } from '../support/chromium.js';
import { startStack } from '../support/stack.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

let stack: Awaited<ReturnType<typeof startStack>>;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];
const pageErrors: string[] = [];
const socketUrls: string[] = [];
/** A match made before the page opened (and the pair), still current after the first test. */
let earlier: [Account, Account];
let earlierMatch: number;

// The public replay reaches back this many events: small, so that a gap is easy to make.
const REPLAY_LIMIT = 3;

beforeAll(async () => {
  stack = await startStack({ SPECTATOR_REPLAY_LIMIT: REPLAY_LIMIT });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on('websocket', (ws) => socketUrls.push(ws.url()));
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function match(a: Account, b: Account): Promise<number> {
  await stack.api.post(`/api/v1/likes/${b.user_id}?kind=like`, { token: a.token });
  const res = await stack.api.post(`/api/v1/likes/${a.user_id}?kind=like`, { token: b.token });
  expect(res.body.matched).toBe(true);
  return res.body.match.id;
}

async function send(from: Account, matchId: number, body: string) {
  const res = await stack.api.post(`/api/v1/matches/${matchId}/messages`, { token: from.token, body: { body } });
  expect(res.status).toBe(201);
}

describe('/spectator in headless Chromium', () => {
  it('shows the synthetic label, then matches and messages live, hostile text as text, and reconnects by itself', async () => {
    earlier = [
      await registerAgent(stack.api, { display_name: 'Early Owl', theme_id: 1 }),
      await registerAgent(stack.api, { display_name: 'Early Lark', theme_id: 6 }),
    ];
    earlierMatch = await match(earlier[0], earlier[1]);
    await send(earlier[0], earlierMatch, 'Already chatting before the page opened.');

    await page.goto(`${stack.baseUrl}/spectator`);
    const label = page.locator('#synthetic-label');
    await label.waitFor({ state: 'visible' });
    expect((await label.textContent())?.toLowerCase()).toContain('synthetic');
    expect((await label.boundingBox())!.y).toBeLessThan(100);
    await page.waitForSelector('body[data-connection="live"]');
    // The state before the page opened is there, from the JSON endpoint.
    await page.locator('.match', { hasText: 'Early Owl' }).waitFor();
    expect(await page.locator('#more-matches').isVisible()).toBe(false);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    const a = await registerAgent(stack.api, { display_name: 'Nova Tern', theme_id: 3, interests: 'kites, tea' });
    const b = await registerAgent(stack.api, { display_name: 'Quill Moss', theme_id: 5, interests: 'tea, moss' });
    const matchId = await match(a, b);
    const card = page.locator(`.match[data-match-id="${matchId}"]`);
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('Nova Tern');
    expect(await card.textContent()).toContain('Quill Moss');
    expect(await card.locator('.chip').allTextContents()).toEqual(['tea']);
    expect(await card.locator('.agent.theme-3').textContent()).toBe('Nova Tern');
    expect(await card.locator('.agent.theme-5').textContent()).toBe('Quill Moss');
    // The new match is on top.
    expect(await page.locator('.match').first().getAttribute('data-match-id')).toBe(String(matchId));

    await card.locator('a.open').click();
    await page.waitForSelector('#conversation-head:not([hidden])');
    await send(a, matchId, 'Hello, fellow tea lover.');
    await send(b, matchId, HOSTILE);
    const bodies = page.locator('#message-list .message .body');
    await expect.poll(() => bodies.allTextContents()).toEqual(['Hello, fellow tea lover.', HOSTILE]);
    expect(await page.locator('#message-list img').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    await expect.poll(() => card.locator('.preview').textContent()).toContain(HOSTILE);

    // The server drops every spectator socket; events made meanwhile still arrive once the page is back.
    const before = socketUrls.length;
    stack.app.realtime.sockets!.closeAll(CLOSE.relayInterrupted);
    await send(a, matchId, 'Sent while you were away.');
    await expect.poll(() => bodies.allTextContents()).toEqual(['Hello, fellow tea lover.', HOSTILE, 'Sent while you were away.']);
    await page.waitForSelector('body[data-connection="live"]');
    expect(socketUrls.length).toBeGreaterThan(before);
    expect(socketUrls.at(-1)).toMatch(/\/api\/v1\/spectator\/stream\?since=\d+-\d+$/);

    await page.screenshot({ path: screenshotPath('spectator.png'), fullPage: true });

    // Unmatching closes the conversation and takes the match off the list.
    await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token });
    await page.waitForSelector('#conversation-ended:not([hidden])');
    await expect.poll(() => card.count()).toBe(0);

    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    const text = await page.locator('body').textContent();
    expect(text).not.toContain(a.email);
  });
});

describe('/spectator after a gap longer than the replay window', () => {
  it('reads the list again when told that older events were skipped, dropping what ended meanwhile', async () => {
    const c = await registerAgent(stack.api, { display_name: 'Late Heron', theme_id: 2 });
    const d = await registerAgent(stack.api, { display_name: 'Late Finch', theme_id: 4 });
    await page.locator('.match', { hasText: 'Early Owl' }).waitFor();

    // The page's next socket is held away from the server until the gap has been made.
    let holding = true;
    let held: WebSocketRoute | undefined;
    await page.routeWebSocket(/\/api\/v1\/spectator\/stream/, (ws) => {
      if (holding) held = ws;
      else ws.connectToServer();
    });
    stack.app.realtime.sockets!.closeAll(CLOSE.relayInterrupted);
    await expect.poll(() => held !== undefined).toBe(true);

    // The end of the earlier match, then more events than the replay window holds.
    expect((await stack.api.delete(`/api/v1/matches/${earlierMatch}`, { token: earlier[0].token })).status).toBe(204);
    const cd = await match(c, d);
    for (let i = 0; i <= REPLAY_LIMIT; i++) await send(c, cd, `Gap message ${i}`);

    holding = false;
    await held!.close({ code: CLOSE.relayInterrupted.code, reason: CLOSE.relayInterrupted.reason });
    await page.locator(`.match[data-match-id="${cd}"]`).waitFor();
    await expect.poll(() => page.locator('.match', { hasText: 'Early Owl' }).count()).toBe(0);
    await page.waitForSelector('body[data-connection="live"]');
    expect(pageErrors).toEqual([]);
  });
});
