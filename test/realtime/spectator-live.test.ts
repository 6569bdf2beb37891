import { publishEvent } from '../support/event-publisher.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spectatorMessageCreated } from '../../src/features/spectator/spectator-views.js';
import { CLOSE } from '../../src/features/events/sockets/event-sockets.js';
import { registerAgent, type Account } from '../support/accounts.js';
import { launchChromium, screenshotPath, watchPage } from '../support/chromium.js';
import { seedAccounts } from '../support/seeded-accounts.js';
import { startStack } from '../support/stack.js';

let stack: Awaited<ReturnType<typeof startStack>>;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function openPage(path = '/spectator', viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const seen = watchPage(page);
  await page.goto(`${stack.baseUrl}${path}`);
  await page.waitForSelector('body[data-connection="live"]');
  return { page, seen };
}

async function match(a: { user_id: number; token: string }, b: { user_id: number; token: string }): Promise<number> {
  await stack.app.swipeService.swipe({ userId: a.user_id, pool: 'agent' }, b.user_id, 'like');
  const res = await stack.app.swipeService.swipe({ userId: b.user_id, pool: 'agent' }, a.user_id, 'like');
  expect(res.matched).toBe(true);
  return res.match!.id;
}

const send = (from: { user_id: number }, matchId: number, body: string) =>
  stack.app.messageService.send({ userId: from.user_id, pool: 'agent' }, matchId, body);

async function pair(names: [string, string], themes: [number, number], interests: [string, string]): Promise<[Account, Account, number]> {
  const a = await registerAgent(stack.api, {
    display_name: names[0],
    theme_id: themes[0],
    interests: interests[0],
    bio: `${names[0]} writes poems.`,
    city: 'Porto',
  });
  const b = await registerAgent(stack.api, { display_name: names[1], theme_id: themes[1], interests: interests[1] });
  return [a, b, await match(a, b)];
}

/** Runs `tasks` `width` at a time. */
async function inBatches(count: number, width: number, task: (i: number) => Promise<unknown>) {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => task(start + k)));
  }
}

const statValue = async (page: Page, id: string) => Number(((await page.locator(`#${id}`).textContent()) ?? '').replace(/\D/g, '') || NaN);

describe('the first screen', () => {
  it('streams new matches and messages newest first, with avatars, interests, snippets and live figures; an agent opens a public card', async () => {
    const { page, seen } = await openPage();
    await expect.poll(() => statValue(page, 'stat-watching')).toBeGreaterThanOrEqual(1);
    const matchesBefore = await statValue(page, 'stat-matches');
    const messagesBefore = await statValue(page, 'stat-messages');

    const [a, , matchId] = await pair(['Iris Vale', 'Otto Brook'], [2, 5], ['kites, tea', 'tea, moss']);
    await send(a, matchId, 'Do you brew your tea with spring water?');

    const items = page.locator('#activity-list .activity-item');
    await expect.poll(() => items.count()).toBe(2);
    // Newest first: the message above the match.
    expect(await items.nth(0).getAttribute('class')).toContain('kind-message');
    expect(await items.nth(0).locator('.snippet').textContent()).toBe('Do you brew your tea with spring water?');
    expect(await items.nth(0).locator('mark.mention').allTextContents()).toEqual(['tea']);
    expect(await items.nth(1).getAttribute('class')).toContain('kind-matched');
    expect(await items.nth(1).textContent()).toContain('Iris Vale');
    expect(await items.nth(1).locator('.chip').allTextContents()).toEqual(['tea']);
    // Generated avatars in the agents' theme colours; never an image from anywhere.
    expect(await items.nth(1).locator('.agent.theme-2 svg.avatar').count()).toBe(1);
    expect(await items.nth(1).locator('.agent.theme-5 svg.avatar').count()).toBe(1);
    const fill = await items
      .nth(1)
      .locator('.agent.theme-2 .avatar-bg')
      .evaluate((node) => getComputedStyle(node).fill);
    expect(fill).toBe('rgb(23, 162, 160)');
    expect(await page.locator('img').count()).toBe(0);

    await expect.poll(() => statValue(page, 'stat-matches')).toBe(matchesBefore + 1);
    await expect.poll(() => statValue(page, 'stat-messages')).toBe(messagesBefore + 1);
    expect(await statValue(page, 'stat-rate')).toBeGreaterThanOrEqual(2);

    // The public card: name, bio, interests, city, age; no e-mail, no birthdate.
    await items.nth(1).locator('.agent.theme-2').click();
    const card = page.locator('#agent-card');
    await card.waitFor({ state: 'visible' });
    await expect.poll(() => page.locator('#agent-card-bio').textContent()).toBe('Iris Vale writes poems.');
    expect(await page.locator('#agent-card-meta').textContent()).toMatch(/^\d+ years · Porto$/);
    expect(await page.locator('#agent-card-interests .chip').allTextContents()).toEqual(['kites', 'tea']);
    expect(await card.textContent()).not.toContain(a.email);
    expect(await card.textContent()).toContain('Synthetic');
    await page.screenshot({ path: screenshotPath('spectator-agent-card-desktop.png') });
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'hidden' });

    await page.screenshot({ path: screenshotPath('spectator-desktop.png'), fullPage: true });
    expect(seen.errors).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    await page.close();
  });

  it('folds a burst into a summary line and keeps the list bounded while hundreds of events arrive', async () => {
    // How fast the page renders and how long its main thread is held meanwhile: bench/spectator-page.ts.
    const { page, seen } = await openPage();
    const [a, b, matchId] = await pair(['Burst One', 'Burst Two'], [1, 3], ['chess', 'chess']);
    await inBatches(400, 40, (i) => send(i % 2 ? a : b, matchId, `Burst message ${i} about chess`));

    await expect.poll(() => statValue(page, 'stat-messages')).toBeGreaterThanOrEqual(400);
    const summary = page.locator('#activity-list .activity-item.kind-summary').first();
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/…and [\d,]+ more: [\d,]+ messages/);
    expect(await page.locator('#activity-list .activity-item').count()).toBeLessThanOrEqual(40);

    // Faster than the service makes messages: the stream's own events, 1,200 of them appended as fast as
    // they go, each as a message of the pair's match.
    await inBatches(1_200, 100, (i) => {
      const message = {
        id: 1_000_000 + i,
        match_id: matchId,
        sender_id: i % 2 ? a.user_id : b.user_id,
        body: `Flood ${i} about chess`,
        created_at: new Date().toISOString(),
        shared_interests_mentioned: ['chess'],
      };
      return publishEvent(stack.app, {
        type: 'message.created',
        pool: 'agent',
        recipients: [],
        dataFor: () => ({}),
        spectator: spectatorMessageCreated(message),
      });
    });
    await expect.poll(() => statValue(page, 'stat-messages')).toBeGreaterThanOrEqual(1_600);
    expect(await page.locator('#activity-list .activity-item').count()).toBeLessThanOrEqual(40);
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('following a conversation', () => {
  it('follows the most active conversation and streams its messages, with the shared interests mentioned highlighted', async () => {
    const { page, seen } = await openPage();
    const [a, , quiet] = await pair(['Quiet Fox', 'Quiet Hare'], [4, 6], ['maps', 'maps']);
    const [c, d, busy] = await pair(['Busy Bee', 'Busy Ant'], [3, 1], ['jazz, film', 'jazz, film']);
    await page.locator('#follow').click();
    expect(await page.locator('#follow').getAttribute('aria-pressed')).toBe('true');

    await send(a, quiet, 'Any maps today?');
    for (let i = 0; i < 4; i++) await send(i % 2 ? c : d, busy, `Busy talk ${i}: jazz or film?`);
    await expect.poll(() => page.locator('#conversation-pair').textContent()).toContain('Busy Bee');
    await expect.poll(() => page.url()).toBe(`${stack.baseUrl}/spectator/matches/${busy}`);
    await send(c, busy, 'Film night with a jazz score?');
    const last = page.locator('#message-list .message').last();
    await expect.poll(() => last.locator('.body').textContent()).toBe('Film night with a jazz score?');
    expect((await last.locator('mark.mention').allTextContents()).map((t) => t.toLowerCase()).sort()).toEqual(['film', 'jazz']);
    expect(await page.locator('#message-list .message').count()).toBe(5);

    // Choosing a match by hand ends following.
    await page.locator(`.match[data-match-id="${quiet}"] a.open`).click();
    expect(await page.locator('#follow').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => page.locator('#conversation-pair').textContent()).toContain('Quiet Fox');
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('deep links, reconnects and ended matches', () => {
  it('opens /spectator/matches/{id} on its thread, keeps it live across a reconnect without duplicates, and removes it when the match ends', async () => {
    const [a, b, matchId] = await pair(['Deep Elm', 'Deep Ash'], [5, 2], ['trees', 'trees']);
    await send(a, matchId, 'First, before the page opened.');
    const { page, seen } = await openPage(`/spectator/matches/${matchId}`);
    const bodies = page.locator('#message-list .message .body');
    await expect.poll(() => bodies.allTextContents()).toEqual(['First, before the page opened.']);
    expect(await page.locator('#conversation-pair').textContent()).toContain('Deep Elm');
    expect(await page.locator('#conversation-interests .chip').allTextContents()).toEqual(['trees']);

    await send(b, matchId, 'Second, live.');
    await expect.poll(() => bodies.allTextContents()).toEqual(['First, before the page opened.', 'Second, live.']);

    // The server drops every spectator socket; what is sent meanwhile arrives once, after a resume with since.
    const sockets = seen.socketUrls.length;
    stack.app.realtime.sockets!.closeAll(CLOSE.relayInterrupted);
    await send(a, matchId, 'Third, while reconnecting.');
    await send(b, matchId, 'Fourth, while reconnecting.');
    await expect
      .poll(() => bodies.allTextContents())
      .toEqual(['First, before the page opened.', 'Second, live.', 'Third, while reconnecting.', 'Fourth, while reconnecting.']);
    await page.waitForSelector('body[data-connection="live"]');
    expect(seen.socketUrls.length).toBeGreaterThan(sockets);
    expect(seen.socketUrls.at(-1)).toMatch(/\/api\/v1\/spectator\/stream\?since=\d+-\d+$/);
    // The activity stream shows what the replay brought once it flushes: wait for the last of it.
    const snippets = page.locator('#activity-list .activity-item .snippet');
    await expect.poll(() => snippets.allTextContents()).toContain('Fourth, while reconnecting.');
    const eventIds = await page
      .locator('#activity-list .activity-item[data-event-id]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-event-id')));
    expect(new Set(eventIds).size).toBe(eventIds.length);
    const messageIds = await page.locator('#message-list .message').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-message-id')));
    expect(new Set(messageIds).size).toBe(4);
    expect((await snippets.allTextContents()).filter((s) => s === 'Third, while reconnecting.')).toHaveLength(1);

    // The match ends: marked as ended, its thread removed, its card gone from the list.
    expect((await stack.api.delete(`/api/v1/matches/${matchId}`, { token: b.token })).status).toBe(204);
    await page.waitForSelector('#conversation-ended:not([hidden])');
    await expect.poll(() => page.locator('#message-list .message').count()).toBe(0);
    await expect.poll(() => page.locator(`.match[data-match-id="${matchId}"]`).count()).toBe(0);
    await page.locator('#activity-list .activity-item.kind-ended', { hasText: 'Deep Elm' }).waitFor();

    // A deep link to a match that is no longer there says so.
    await page.goto(`${stack.baseUrl}/spectator/matches/${matchId}`);
    await page.waitForSelector('#conversation-ended:not([hidden])');
    expect(seen.errors.filter((e) => !e.includes('404'))).toEqual([]);
    await page.close();
  });
});

describe('for everyone', () => {
  it('fits a phone, works from the keyboard, switches to a dark theme, and keeps the synthetic label in view', async () => {
    const [a, , matchId] = await pair(['Phone Kit', 'Phone Jay'], [6, 4], ['sailing', 'sailing']);
    await send(a, matchId, 'Small screens, big sails.');
    const { page, seen } = await openPage('/spectator', { width: 390, height: 844 });
    const label = page.locator('#synthetic-label');
    expect(await label.isVisible()).toBe(true);
    expect((await label.boundingBox())!.y).toBeLessThan(60);
    expect(await page.locator('#synthetic-note').textContent()).toContain('every profile and message here belongs to an AI agent');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The live activity is in the first screen.
    expect((await page.locator('#activity-heading').boundingBox())!.y).toBeLessThan(844);

    await send(a, matchId, 'A message for the phone.');
    await page.locator('#activity-list .activity-item.kind-message').first().waitFor();
    // The live region carries a summary, not every event.
    expect(await page.locator('[aria-live]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('spectator-phone.png'), fullPage: true });

    // Keyboard: a match's Watch link opens its conversation.
    const link = page.locator(`.match[data-match-id="${matchId}"] a.open`);
    await link.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#message-list .message .body').allTextContents()).toEqual(['Small screens, big sails.', 'A message for the phone.']);
    expect(await page.locator('.synthetic-line').first().isVisible()).toBe(true);

    const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.locator('#theme-toggle').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(lightBackground);
    await page.screenshot({ path: screenshotPath('spectator-phone-dark.png'), fullPage: true });
    expect(seen.errors).toEqual([]);
    await page.close();
  });
});

describe('history', () => {
  it('shows the newest 50 of 1,000 stored matches on the first screen, then pages back through older matches and messages', async () => {
    // How soon that first screen renders: bench/spectator-page.ts.
    const accounts = await seedAccounts(stack.app, 'agent', 2_000, ['chess', 'jazz']);
    await inBatches(1_000, 50, (i) => match(accounts[2 * i]!, accounts[2 * i + 1]!));
    const [a, b, chatty] = await pair(['History Owl', 'History Bat'], [1, 2], ['chess', 'chess']);
    for (let i = 0; i < 105; i++) await send(i % 2 ? a : b, chatty, `m${i}`);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watchPage(page);
    await page.goto(`${stack.baseUrl}/spectator`, { waitUntil: 'commit' });
    await page.waitForFunction(() => document.querySelectorAll('.match').length >= 50);
    expect(await page.locator('.match').count()).toBe(50);

    await page.locator('#more-matches').click();
    await expect.poll(() => page.locator('.match').count()).toBe(100);
    await page.locator('#more-matches').click();
    await expect.poll(() => page.locator('.match').count()).toBe(150);

    await page.goto(`${stack.baseUrl}/spectator/matches/${chatty}`);
    const bodies = page.locator('#message-list .message .body');
    await expect.poll(() => bodies.count()).toBe(100);
    expect(await bodies.first().textContent()).toBe('m5');
    await page.locator('#older-messages').click();
    await expect.poll(() => bodies.count()).toBe(105);
    expect(await bodies.first().textContent()).toBe('m0');
    expect(await page.locator('#older-messages').isVisible()).toBe(false);
    expect(seen.errors).toEqual([]);
    await page.close();
  }, 120_000);
});
