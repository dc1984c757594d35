// The widget's converter queue in the built site (make dist), in headless Chromium: edits made
// while the worker is busy do not pile up, a superseded conversion never shows, a worker that
// stops answering is reported to the reader after 5 s and replaced (with the module it already
// has), and on a slow connection the module's download shows its progress and is not counted in
// those 5 s.
//
// The worker is swapped for a test double by routing its script (the page itself is unchanged,
// so a reader has no way to trigger these paths on purpose).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const WIDGET = '[data-trainer-v2-explorer]:not([data-compact])';
const WORKER = '**/pkg-migrate/converter-worker.js';

/** The real converter, but each conversion answers only once the test releases it
 * (`release(page)`); the names of the jobs it converted are kept in `self.converted`. The tests
 * below hold conversions this way and move the page's clock themselves (Playwright's clock API),
 * so what they check never depends on how fast this machine is. */
const HELD_WORKER = `
import init, { migrate } from './trainer_v2_migrate.js';
let ready;
let received = 0;
let released = 0;
const sleepers = [];
self.converted = [];
self.release = () => {
  released++;
  sleepers.splice(0).forEach((wake) => wake());
};
self.onmessage = async ({ data: { id, text, release, module } }) => {
  const n = received++;
  ready ??= init({ module_or_path: module });
  await ready;
  while (n >= released) await new Promise((wake) => sleepers.push(wake));
  self.converted.push(/name: (\\S+)/.exec(text)?.[1]);
  self.postMessage({ id, answer: migrate(text, release) });
};`;

/** Lets the held worker answer its oldest held conversion. */
async function release(page) {
  const [worker] = page.workers();
  assert.ok(worker, 'the worker was stopped while it held a conversion');
  await worker.evaluate(() => self.release());
}

/** A worker that never answers: it spins from its first message on. */
const HUNG_WORKER = 'self.onmessage = () => { for (;;) {} };';

const js = (body) => ({ status: 200, contentType: 'text/javascript', body });

/** Counts the downloads of the converter module (`counter.n`). */
function countModuleDownloads(context) {
  const counter = { n: 0 };
  context.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/trainer_v2_migrate_bg.wasm')) counter.n++;
  });
  return counter;
}

/** Serves the real converter loader, counting in `window.asked` the texts the widget asks it to
 * convert (its 200 ms debounce has passed for each): what the edits below wait on. */
async function countAsked(context) {
  await context.route('**/pkg-migrate/converter.js', async (route) => {
    const response = await route.fetch();
    const real = await response.text();
    // dist/ ships converter.js minified: its parameters have other names there.
    const body = real.replace(/export function convert\([^)]*\)\s*\{/, '$& window.asked = (window.asked ?? 0) + 1;');
    assert.notEqual(body, real, 'converter.js still exports a function convert');
    await route.fulfill({ response, body });
  });
}

const untilAsked = (page, n) => page.waitForFunction((n) => window.asked >= n, n, { timeout: 15000 });

/** Counts, on the page, the conversions handed to a worker and not yet answered
 * (`window.inFlight`), and all those handed over (`window.handedOver`): what the tests wait on
 * instead of the clock. */
function countInFlight() {
  window.inFlight = 0;
  const Real = window.Worker;
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => window.inFlight--);
    }
    postMessage(...args) {
      window.inFlight++;
      window.handedOver = (window.handedOver ?? 0) + 1;
      return super.postMessage(...args);
    }
  };
}

async function openMigrate(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  await page.locator(`${WIDGET} #m-input`).waitFor({ timeout: 15000 });
  return { page, errors };
}

/** Playwright's clock stands still from the start: the page's timers (the widget's 200 ms
 * debounce, the converter's 5 s watchdog) fire only when the test moves the clock with
 * `page.clock.runFor`, whatever the real time a step takes on this machine. */
async function holdClock(context) {
  const start = Date.parse('2026-01-01T00:00:00Z');
  await context.clock.install({ time: start });
  await context.clock.pauseAt(start);
}

/** Opens migrate mode on a held clock and lets the first debounce pass: resolves once the
 * sample's conversion is with the worker (needs `countInFlight`), which is when the watchdog
 * starts counting. */
async function openMigrateOnHeldClock(context) {
  await holdClock(context);
  const opened = await openMigrate(context);
  await opened.page.clock.runFor(200);
  await opened.page.waitForFunction(() => window.inFlight === 1, null, { timeout: 15000 });
  return opened;
}

/** Types the job's new name and lets the 200 ms debounce pass on the held clock. */
async function renameAndWait(page, name) {
  await rename(page, name);
  await page.clock.runFor(200);
}

const ALERT = `${WIDGET} .migrate-result [role=alert]`;

/** Waits until the result pane shows `name: NAME` or an alert; returns its text. */
async function settled(page, name) {
  await page.waitForFunction(
    ([sel, name]) => {
      const pane = document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result');
      return pane?.textContent.includes(`name: ${name}`) || pane?.querySelector('[role=alert]');
    },
    [WIDGET, name],
    { timeout: 15000 },
  );
  return result(page).textContent();
}

const result = (page) => page.locator(`${WIDGET} .migrate-result`);

async function waitForResult(page, text, timeout = 15000) {
  await page.waitForFunction(
    ([sel, text]) => document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result')?.textContent.includes(text),
    [WIDGET, text],
    { timeout },
  );
}

/** The text area's job, renamed. */
async function rename(page, name) {
  const area = page.locator(`${WIDGET} #m-input`);
  const text = await area.inputValue();
  await area.fill(text.replace(/^( {2}name: )\S+$/m, `$1${name}`));
}

test('edits made while the converter is busy: only the newest waits, and a superseded one never shows', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(WORKER, (route) => route.fulfill(js(HELD_WORKER)));
  await context.addInitScript(countInFlight);
  await countAsked(context);
  const { page, errors } = await openMigrateOnHeldClock(context);
  // Everything the reader sees in the result pane, as it changes.
  await page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    window.shown = [];
    new MutationObserver(() => window.shown.push(root.querySelector('.migrate-result')?.textContent ?? '')).observe(
      root,
      { subtree: true, childList: true, characterData: true },
    );
  }, WIDGET);
  const initial = /name: (\S+)/.exec(await page.locator(`${WIDGET} #m-input`).inputValue())[1];
  // The worker holds the sample's conversion. Edits each past the 200 ms debounce: each is asked
  // for while it is held (1 s on the page's clock in all, well inside the watchdog's 5 s).
  for (const [i, name] of ['edit-1', 'edit-2', 'edit-3', 'edit-4'].entries()) {
    await renameAndWait(page, name);
    await untilAsked(page, i + 2);
  }
  // Then a change undone within the debounce: the text is edit-4 again, and the conversion
  // asked for edit-4 is superseded by a second one for the same text.
  await rename(page, 'edit-5');
  await renameAndWait(page, 'edit-4');
  await untilAsked(page, 6);
  // The worker answers the sample, then whatever was handed to it next.
  await release(page);
  await release(page);
  await waitForResult(page, 'name: edit-4');
  await page.waitForFunction(() => window.inFlight === 0, null, { timeout: 15000 });
  const converted = await page.workers()[0].evaluate(() => self.converted);
  // Six texts were asked for (the sample, edits 1 to 4, edit-4 again); without the queue the
  // worker runs all six. With it, a text waiting behind the busy worker is replaced by the next
  // one: only the newest ran after the sample.
  assert.deepEqual(converted, [initial, 'edit-4']);
  assert.equal(await page.evaluate(() => window.handedOver), 2);
  const shown = await page.evaluate(() => window.shown);
  assert.ok(!shown.some((t) => t.includes('superseded')), `a superseded conversion was shown: ${shown.find((t) => t.includes('superseded'))}`);
  assert.ok(!shown.some((t) => /name: edit-[1-3]\b/.test(t)), 'an answer for an older edit was shown');
  assert.match(await result(page).textContent(), /name: edit-4\b/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a text waiting behind a busy worker gets its own 5 s: the wait is not counted', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(WORKER, (route) => route.fulfill(js(HELD_WORKER)));
  await context.addInitScript(countInFlight);
  await countAsked(context);
  const { page, errors } = await openMigrateOnHeldClock(context);
  // The sample's conversion is held by the worker: the edit waits behind it from 0.2 s on.
  await renameAndWait(page, 'behind-busy');
  await untilAsked(page, 2);
  await page.clock.runFor(4000);
  // The sample answers 4.2 s after its hand-over; the edit goes to the worker, 4 s after it was
  // asked for.
  await release(page);
  await page.waitForFunction(() => window.handedOver === 2, null, { timeout: 15000 });
  // 4.99 s more: the edit has waited 8.99 s in all, 4.99 s of them with the worker. A watchdog
  // counting the wait stops it here.
  await page.clock.runFor(4990);
  await release(page);
  const shown = await settled(page, 'behind-busy');
  assert.doesNotMatch(shown, /did not finish within/);
  assert.match(shown, /name: behind-busy\b/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a conversion that does not answer within 5 s is reported, and the next edit gets a new worker', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let served = 0;
  await context.route(WORKER, (route) => (served++ === 0 ? route.fulfill(js(HUNG_WORKER)) : route.continue()));
  await context.addInitScript(countInFlight);
  const downloads = countModuleDownloads(context);
  const { page, errors } = await openMigrateOnHeldClock(context);
  // The page has posted to its worker (inFlight is 1), but Playwright learns of a worker by an
  // event that can arrive later on a loaded machine: wait for it rather than read an empty list.
  const hung = page.workers()[0] ?? (await page.waitForEvent('worker', { timeout: 15000 }));
  // 1 ms short of 5 s after the hand-over: the conversion still runs, and nothing is said.
  await page.clock.runFor(4999);
  assert.equal(await page.locator(ALERT).count(), 0, 'the reader was told before the 5 s were up');
  assert.ok(page.workers().includes(hung), 'the worker was stopped before the 5 s were up');
  // At 5 s the reader is told.
  await page.clock.runFor(1);
  const alert = page.locator(ALERT);
  await alert.waitFor({ timeout: 15000 });
  assert.match(await alert.textContent(), /did not finish within 5 seconds, so it was stopped/);
  // The hung worker is gone; an edit starts the real one, which converts it.
  await renameAndWait(page, 'after-restart');
  await waitForResult(page, 'name: after-restart');
  assert.equal(served, 2, 'a second worker was started');
  assert.equal(downloads.n, 1, 'the second worker got the module the page already had');
  // Playwright drops a terminated worker from its list when its 'close' event arrives.
  if (hung && page.workers().includes(hung)) await new Promise((resolve) => hung.once('close', resolve));
  assert.equal(page.workers().length, 1, 'the hung worker was stopped');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A page on Chromium's network emulation, for the whole page: 0.8 Mbit/s (100,000 bytes a
 * second) with 150 ms latency, from a server that does not compress (scripts/serve.py): the
 * 1.2 MB module alone takes about 12 s, more than twice the watchdog's 5 s. */
async function openMigrateThrottled(context) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 100000,
    uploadThroughput: 100000,
  });
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  await page.locator(`${WIDGET} #m-input`).waitFor({ timeout: 60000 });
  return { page, errors };
}

/** Waits until the module's download is under way and not done: the bar shows part of it. */
const downloading = (page) =>
  page.waitForFunction(
    (sel) => {
      const bar = document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result progress');
      return bar && Number(bar.value) > 0 && Number(bar.value) < Number(bar.max);
    },
    WIDGET,
    { timeout: 30000 },
  );

/** Whether the download is still under way now (its bar short of full). */
const stillDownloading = (page) =>
  page.evaluate((sel) => {
    const bar = document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result progress');
    return Boolean(bar) && Number(bar.value) < Number(bar.max);
  }, WIDGET);

test('on a slow connection the sample converts: the download shows its progress and is not counted in the 5 s', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const downloads = countModuleDownloads(context);
  await context.route(WORKER, (route) => route.fulfill(js(HELD_WORKER)));
  await context.addInitScript(countInFlight);
  await holdClock(context);
  const { page, errors } = await openMigrateThrottled(context);
  const sample = /name: (\S+)/.exec(await page.locator(`${WIDGET} #m-input`).inputValue())[1];
  // The debounce: the sample is asked for, and the module's download starts.
  await page.clock.runFor(200);
  // The reader sees the download going, with its size: the server sends Content-Length.
  await downloading(page);
  assert.match(await page.locator(`${WIDGET} .migrate-result [role=status]`).textContent(), /Loading the converter/);
  const max = Number(await page.locator(`${WIDGET} .migrate-result progress`).getAttribute('max'));
  assert.ok(max > 1_000_000, `the bar's total is the module's size: ${max}`);
  assert.match(await page.locator(`${WIDGET} .loading-size`).textContent(), /^\d+\.\d MB of 1\.\d MB$/);
  // 6 s on the page's clock while the module still downloads: a watchdog counting the download
  // stops the conversion here (the defect this guards).
  await page.clock.runFor(6000);
  assert.ok(await stillDownloading(page), 'the download ended within the 6 s: nothing told apart');
  assert.equal(await page.evaluate(() => window.handedOver ?? 0), 0, 'the text went to the worker before the module was here');
  // The module arrives and the text goes to the worker, which holds it 4 s on the page's clock:
  // within its own 5 s, and 10 s after it was asked for.
  await page.waitForFunction(() => window.handedOver === 1, null, { timeout: 60000 });
  await page.clock.runFor(4000);
  await release(page);
  await waitForResult(page, `name: ${sample}`, 30000);
  assert.doesNotMatch(await result(page).textContent(), /did not finish within/);
  assert.equal(downloads.n, 1, 'the module was downloaded once');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a slow connection a hung conversion is still stopped 5 s after the module arrived', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(WORKER, (route) => route.fulfill(js(HUNG_WORKER)));
  await context.addInitScript(countInFlight);
  await holdClock(context);
  const { page, errors } = await openMigrateThrottled(context);
  await page.clock.runFor(200);
  await downloading(page);
  // 10 s on the page's clock during the download: not counted.
  await page.clock.runFor(10000);
  assert.ok(await stillDownloading(page), 'the download ended within the 10 s: nothing told apart');
  // The module arrives and the text goes to the (hung) worker: the 5 s count from here.
  await page.waitForFunction(() => window.inFlight === 1, null, { timeout: 60000 });
  await page.clock.runFor(4999);
  assert.equal(await page.locator(ALERT).count(), 0, 'the reader was told before the 5 s were up');
  await page.clock.runFor(1);
  const alert = page.locator(ALERT);
  await alert.waitFor({ timeout: 15000 });
  assert.match(await alert.textContent(), /did not finish within 5 seconds, so it was stopped/);
  assert.deepEqual(errors, []);
  await context.close();
});
