import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, driven by playwright-core: for tests that look at a page the way a person would
 * (the harness report, the API docs page). `.ci/run` installs `chromium` when it is missing. Every launch gets
 * a fresh profile (Playwright's launch makes a temporary user data dir) and nothing that phones home.
 */
export const CHROMIUM_PATH = process.env.QC_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots land here (gitignored), so a person can open what the test saw. */
export const SCREENSHOT_DIR = join(import.meta.dir, '..', '..', '.artifacts', 'screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface HeadlessPage {
  page: Page;
  /** Every URL the page asked for, the page itself included, in order. */
  requests: string[];
  /** With `onlyOrigin`: the URLs asked for elsewhere, each refused as if the network were cut. */
  refused: string[];
  /** A full-page PNG under SCREENSHOT_DIR; answers its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Refuse every request outside this origin (`data:` and `blob:` URLs pass): the page must work offline. */
  onlyOrigin?: string;
}

/** Opens `url` in a fresh headless Chromium and waits until the page and what it loads have arrived. */
export async function openHeadlessPage(url: string, options: PageOptions = {}): Promise<HeadlessPage> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 900 } });
    const requests: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const origin = options.onlyOrigin;
    if (origin) {
      await page.route('**/*', (route) => {
        const asked = route.request().url();
        if (asked.startsWith(origin) || asked.startsWith('data:') || asked.startsWith('blob:')) return route.continue();
        refused.push(asked);
        return route.abort('internetdisconnected');
      });
    }
    await page.goto(url, { waitUntil: 'load' });
    return {
      page,
      requests,
      refused,
      async screenshot(name: string) {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const path = join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        return path;
      },
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}
