// Shared by the end-to-end tests: the browser, and waiting for every widget to mount.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';

/** Resolves once the page has drawn two more frames: what a change asked for is on screen, and
 * what the browser reports after a frame (layout shifts, intersection callbacks) is reported. */
export const nextFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** A package installed next to playwright-core in .tools/node (scripts/install-tools.sh). */
export function nodeModule(name) {
  const core = process.env.PLAYWRIGHT_CORE;
  return require(core ? path.join(path.dirname(core), name) : name);
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Scrolls each mount point into view (the loader is lazy) and waits for it to mount. */
export async function mountAll(page) {
  const mounts = page.locator('[data-trainer-v2-explorer]');
  const n = await mounts.count();
  for (let i = 0; i < n; i++) {
    await mounts.nth(i).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (i) => document.querySelectorAll('[data-trainer-v2-explorer]')[i].hasAttribute('data-trainer-v2-explorer-mounted'),
      i,
      { timeout: 15000 },
    );
  }
  return n;
}

/** Waits until the main explorer's migrate mode shows a converted TrainJob. */
export function waitForConvertedTrainJob(page) {
  return page.waitForFunction(
    () =>
      document
        .querySelector('[data-trainer-v2-explorer]:not([data-compact])')
        ?.shadowRoot?.querySelector('.migrate-result')
        ?.textContent.includes('kind: TrainJob'),
    null,
    { timeout: 15000 },
  );
}

/** The main explorer (not a compact preset of the post). */
export const MAIN_WIDGET = '[data-trainer-v2-explorer]:not([data-compact])';

/** Opens the post at the main explorer with `query` and opens its lazily filled disclosure
 * `paneClass` (k8s-pane, upgrade-pane); collects the page's errors. */
export async function openPane(context, query, paneClass) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(`?${query}#user-experience`, BASE).href);
  // On a phone the fragment lands above the widget, which mounts only near the viewport.
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  const summary = page.locator(`${MAIN_WIDGET} .${paneClass} summary`);
  await summary.waitFor({ timeout: 15000 });
  await summary.scrollIntoViewIfNeeded();
  await summary.click();
  return { page, errors };
}
