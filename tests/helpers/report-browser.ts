import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * report.html in the installed Chromium (Debian's package, no download), as src/report/html.test.ts drives it: without
 * a browser the test skips saying why, unless TOOLGAUGE_REQUIRE_BROWSER=1 makes that a failure.
 */
const CHROMIUM = process.env.TOOLGAUGE_CHROMIUM || '/usr/bin/chromium';
const NO_CHROMIUM = `no Chromium at ${CHROMIUM} (install it: apt-get install chromium, or set TOOLGAUGE_CHROMIUM)`;

let browser: BrowserContext | undefined;
let profile: string | undefined;

export interface ReportPage {
  page: Page;
  /** Nothing from the run became markup, asked the network, alerted or failed a script. */
  clean(): Promise<void>;
}

/**
 * Opens a report page (a file, or a `file:` URL with its address fragment) once its script is ready; undefined (the
 * test skipped) when there is no Chromium.
 */
export async function openReport(file: string, ctx: { skip: (note: string) => void }): Promise<ReportPage | undefined> {
  if (!existsSync(CHROMIUM)) {
    if (process.env.TOOLGAUGE_REQUIRE_BROWSER === '1') throw new Error(`${NO_CHROMIUM}; TOOLGAUGE_REQUIRE_BROWSER=1`);
    console.warn(`report.html browser test skipped: ${NO_CHROMIUM}`);
    ctx.skip(NO_CHROMIUM);
    return undefined;
  }
  if (!browser) {
    profile = mkdtempSync(join(tmpdir(), 'tg-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(file.startsWith('file:') ? file : pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="1"]');
  return {
    page,
    clean: async () => {
      expect(await page.locator('img, b[onmouseover], svg[onload], [onerror]').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(2);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    },
  };
}

/** Closes the browser and removes its profile (afterAll). */
export async function closeReportBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
  if (profile) rmSync(profile, { recursive: true, force: true });
}
