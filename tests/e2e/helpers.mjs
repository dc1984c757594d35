// Shared by the end-to-end tests: the browser, and waiting for every widget to mount.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';

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
