/**
 * The spectator page in a real browser (Debian's Chromium, headless, through playwright-core): how soon its
 * first screen (the newest 50 matches) renders with many matches stored, and how long its main thread is
 * held while a burst of events arrives. The service runs in this process on a private Redis; matches are
 * seeded through the service's own repository and swipe service (no HTTP, no password hashing).
 *
 *   npx tsx bench/spectator-page.ts [--matches 1000] [--loads 5] [--burst 400] [--flood 1200] [--json]
 *
 * These are the figures test/realtime/spectator-live.test.ts used to assert; the test now checks what the
 * page shows, and the timings live here, where a noisy machine makes a figure worse, not a build red.
 */
import { publishEvent } from '../test/support/event-publisher.js';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Application } from '../src/app.js';
import { spectatorMessageCreated } from '../src/features/spectator/spectator-views.js';
import { startPrivateRedis } from './lib/private-redis.js';
import { startBenchApp } from './lib/bench-app.js';

export type SpectatorPageOptions = {
  /** Matches stored before the first screen is timed. */
  matches?: number;
  /** Page loads timed, each in a fresh browser context (nothing cached). */
  loads?: number;
  /** Messages sent through the service, in batches of 40, while the page watches. */
  burst?: number;
  /** Events appended straight to the spectator stream, in batches of 100, as fast as they go. */
  flood?: number;
  log?: (line: string) => void;
};

/** Main-thread figures while events arrive: the longest gap of a 50 ms timer beyond 50 ms, and Chromium's long tasks. */
type Responsiveness = { events: number; per_second: number; lag_max_ms: number; longest_task_ms: number; long_tasks: number; list_items: number };

export type SpectatorPageResult = {
  label: string;
  browser: string;
  matches: number;
  /** ms from navigation start until 50 matches are on the page, per load. */
  first_screen_ms: { loads: number[]; p50: number; max: number };
  /**
   * Where that time goes, p50 over the loads: the page's HTML received, the first page of matches asked
   * for (the page asks once its live socket is open) and received.
   */
  document_received_ms_p50: number;
  matches_requested_ms_p50: number;
  matches_received_ms_p50: number;
  burst: Responsiveness;
  flood: Responsiveness;
  load_average: number[];
};

const PAGE_SIZE = 50;
/** The page's activity list keeps at most this many items (src/features/spectator/spectator-page/app.js). */
const ACTIVITY_MAX_ITEMS = 40;

export async function runSpectatorPage(opts: SpectatorPageOptions = {}): Promise<SpectatorPageResult> {
  const { matches = 1_000, loads = 5, burst = 400, flood = 1_200, log = () => {} } = opts;
  const redis = await startPrivateRedis('spectator-page-bench');
  const app = await startBenchApp(redis.topology);
  const baseUrl = `http://127.0.0.1:${app.port}`;
  let browser: Browser | undefined;
  try {
    log(`seeding ${matches} matches (${2 * matches} agents, store and swipe service, no HTTP) ...`);
    const ids = await seedAgents(app, 2 * matches);
    await inBatches(matches, 50, (i) => match(app, ids[2 * i]!, ids[2 * i + 1]!));
    const [a, b] = await seedAgents(app, 2);
    const chatty = await match(app, a!, b!);

    // The flags of test/support/chromium.ts: headless, no sandbox, no GPU, no background traffic.
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });

    log(`timing the first screen over ${loads} loads ...`);
    const timings: FirstScreen[] = [];
    for (let i = 0; i < loads; i++) timings.push(await timeFirstScreen(browser, baseUrl));
    const firstScreen = timings.map((t) => t.rendered);

    log(`${burst} messages through the service, then ${flood} events straight onto the stream, with the page open ...`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/spectator`);
    await page.waitForSelector('body[data-connection="live"]');
    await watchMainThread(page);
    const messagesBefore = await statValue(page, 'stat-messages');

    const burstFigures = await underEvents(page, burst, messagesBefore + burst, () =>
      inBatches(burst, 40, (i) => app.messageService.send({ userId: i % 2 ? a! : b!, pool: 'agent' }, chatty, `Burst message ${i} about chess`)),
    );
    const floodFigures = await underEvents(page, flood, messagesBefore + burst + flood, () =>
      inBatches(flood, 100, (i) => {
        const message = {
          id: 1_000_000 + i,
          match_id: chatty,
          sender_id: i % 2 ? a! : b!,
          body: `Flood ${i} about chess`,
          created_at: new Date().toISOString(),
          shared_interests_mentioned: ['chess'],
        };
        return publishEvent(app, { type: 'message.created', pool: 'agent', recipients: [], dataFor: () => ({}), spectator: spectatorMessageCreated(message) });
      }),
    );
    await context.close();

    return {
      label: 'seeded: agents and matches written by the service store and swipe service (no HTTP); one browser on the same machine',
      browser: `Chromium ${browser.version()}`,
      matches,
      first_screen_ms: { loads: firstScreen.map(round), p50: round(median(firstScreen)), max: round(Math.max(...firstScreen)) },
      document_received_ms_p50: round(median(timings.map((t) => t.document))),
      matches_requested_ms_p50: round(median(timings.map((t) => t.matchesAsked))),
      matches_received_ms_p50: round(median(timings.map((t) => t.matches))),
      burst: burstFigures,
      flood: floodFigures,
      load_average: loadavg().map(round),
    };
  } finally {
    await browser?.close();
    await app.stop();
    await redis.stop();
  }
}

let seeded = 0;

async function seedAgents(app: Application, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let done = 0; done < count; done += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, count - done) }, async () => {
        const n = ++seeded;
        const user = await app.users.create({
          pool: 'agent',
          email: `spectator-bench-${n}@example.com`,
          passwordHash: 'seeded-no-login',
          displayName: `Seeded Agent ${n}`,
          birthdate: '1990-01-01',
          gender: 'other',
          bio: '',
          interests: ['chess', 'jazz'],
          city: '',
          state: '',
          themeId: (n % 6) + 1,
        });
        if (!user) throw new Error('seeding failed');
        return user.id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

async function match(app: Application, a: number, b: number): Promise<number> {
  await app.swipeService.swipe({ userId: a, pool: 'agent' }, b, 'like');
  const res = await app.swipeService.swipe({ userId: b, pool: 'agent' }, a, 'like');
  if (!res.match) throw new Error('seeding: the pair did not match');
  return res.match.id;
}

async function inBatches(count: number, width: number, task: (i: number) => Promise<unknown>) {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => task(start + k)));
  }
}

type FirstScreen = { rendered: number; document: number; matchesAsked: number; matches: number };

/**
 * One load in a fresh context: ms from navigation start until the first page of matches is rendered,
 * until the HTML was received, and until the first page of matches (`GET /api/v1/spectator/matches`)
 * was asked for and received.
 */
async function timeFirstScreen(browser: Browser, baseUrl: string): Promise<FirstScreen> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/spectator`, { waitUntil: 'commit' });
    await page.waitForFunction((n) => document.querySelectorAll('.match').length >= n, PAGE_SIZE, { polling: 'raf' });
    return await page.evaluate(() => {
      const rendered = performance.now();
      const html = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseEnd ?? NaN;
      const matches = performance.getEntriesByType('resource').find((e) => /\/api\/v1\/spectator\/matches\?/.test(e.name)) as
        PerformanceResourceTiming | undefined;
      return { rendered, document: html, matchesAsked: matches?.startTime ?? NaN, matches: matches?.responseEnd ?? NaN };
    });
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)]!;

/** Installs the page's own probes: a 50 ms timer's longest overshoot, and Chromium's long tasks (over 50 ms). */
async function watchMainThread(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { bench: { lag: number; longest: number; tasks: number } };
    w.bench = { lag: 0, longest: 0, tasks: 0 };
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      w.bench.lag = Math.max(w.bench.lag, now - last - 50);
      last = now;
    }, 50);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.bench.tasks++;
        w.bench.longest = Math.max(w.bench.longest, entry.duration);
      }
    }).observe({ type: 'longtask' });
  });
}

/** Runs `send` (which makes `events` events), waits until the page counts `messagesTarget` messages, and reads the probes. */
async function underEvents(page: Page, events: number, messagesTarget: number, send: () => Promise<unknown>): Promise<Responsiveness> {
  await page.evaluate(() => {
    const w = window as unknown as { bench: { lag: number; longest: number; tasks: number } };
    w.bench.lag = 0;
    w.bench.longest = 0;
    w.bench.tasks = 0;
  });
  const started = performance.now();
  await send();
  const seconds = (performance.now() - started) / 1000;
  await page.waitForFunction((target) => Number((document.getElementById('stat-messages')?.textContent ?? '').replace(/\D/g, '')) >= target, messagesTarget, {
    timeout: 120_000,
  });
  const probes = await page.evaluate(() => (window as unknown as { bench: { lag: number; longest: number; tasks: number } }).bench);
  const listItems = await page.locator('#activity-list .activity-item').count();
  if (listItems > ACTIVITY_MAX_ITEMS) throw new Error(`the activity list grew to ${listItems} items, past its cap of ${ACTIVITY_MAX_ITEMS}`);
  return {
    events,
    per_second: Math.round(events / seconds),
    lag_max_ms: round(probes.lag),
    longest_task_ms: round(probes.longest),
    long_tasks: probes.tasks,
    list_items: listItems,
  };
}

const statValue = async (page: Page, id: string) => Number(((await page.locator(`#${id}`).textContent()) ?? '').replace(/\D/g, '') || 0);

const round = (n: number) => Math.round(n * 10) / 10;

export function spectatorPageTable(r: SpectatorPageResult): string {
  const events = (x: Responsiveness) => `${x.events.toLocaleString('en-US')} at ${x.per_second.toLocaleString('en-US')}/s`;
  const thread = (x: Responsiveness) =>
    `${x.lag_max_ms} ms / ${x.longest_task_ms} ms (${x.long_tasks} long ${x.long_tasks === 1 ? 'task' : 'tasks'}); ${x.list_items} items listed`;
  const rows: Array<[string, string]> = [
    [
      `first screen (${PAGE_SIZE} of ${r.matches.toLocaleString('en-US')} matches), p50 / max over ${r.first_screen_ms.loads.length} loads`,
      `${r.first_screen_ms.p50} / ${r.first_screen_ms.max} ms (${r.first_screen_ms.loads.join(', ')})`,
    ],
    [
      '  on the way, p50: HTML received / matches asked for (socket open) / received',
      `${r.document_received_ms_p50} / ${r.matches_requested_ms_p50} / ${r.matches_received_ms_p50} ms`,
    ],
    [`messages through the service, ${events(r.burst)}: timer lag max / longest task`, thread(r.burst)],
    [`events straight onto the stream, ${events(r.flood)}: timer lag max / longest task`, thread(r.flood)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    `Spectator page — ${r.browser}, headless; ${r.label}`,
    `load average during the run: ${r.load_average.join(' / ')}`,
    '',
    ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      matches: { type: 'string', default: '1000' },
      loads: { type: 'string', default: '5' },
      burst: { type: 'string', default: '400' },
      flood: { type: 'string', default: '1200' },
      json: { type: 'boolean', default: false },
    },
  });
  const result = await runSpectatorPage({
    matches: Number(values.matches),
    loads: Number(values.loads),
    burst: Number(values.burst),
    flood: Number(values.flood),
    log: (line) => console.error(line),
  });
  console.log(values.json ? JSON.stringify(result, null, 2) : `\n${spectatorPageTable(result)}\n`);
  process.exit(0);
}
