import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, headless, without the sandbox, the GPU or background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Records the page's dialogs, script errors and console errors: a test expects them to stay empty. */
export function watchPage(page: Page) {
  const seen = { dialogs: [] as string[], errors: [] as string[], socketUrls: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(`${message.text()} ${message.location().url}`);
  });
  page.on('websocket', (ws) => seen.socketUrls.push(ws.url()));
  return seen;
}

/** A path under test-output/ (git-ignored) for a screenshot. */
export function screenshotPath(name: string) {
  mkdirSync('test-output', { recursive: true });
  return `test-output/${name}`;
}
