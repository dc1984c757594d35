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

/** The real converter, but each conversion answers no sooner than `busyMs` after its text reached
 * the worker; the names of the jobs it converted are kept in `self.converted`. The time counts
 * from the text's arrival, so the module's start-up (seconds on a loaded machine) is inside it,
 * not added to it: the page's 5 s watchdog sees `busyMs` plus the conversion itself. */
const slowWorker = (busyMs) => `
import init, { migrate } from './trainer_v2_migrate.js';
let ready;
self.converted = [];
self.onmessage = async ({ data: { id, text, release, module } }) => {
  const until = Date.now() + ${busyMs};
  ready ??= init({ module_or_path: module });
  await ready;
  await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
  self.converted.push(/name: (\\S+)/.exec(text)?.[1]);
  self.postMessage({ id, answer: migrate(text, release) });
};`;

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
 * (`window.inFlight`): what the tests wait on instead of the clock. */
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
  // 2.6 s per conversion: all the edits below land while the first one runs, and the newest
  // still answers within the 5 s watchdog.
  await context.route(WORKER, (route) => route.fulfill(js(slowWorker(2600))));
  await context.addInitScript(countInFlight);
  await countAsked(context);
  const { page, errors } = await openMigrate(context);
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
  // While the first conversion runs, edits each past the 200 ms debounce: each is asked for.
  for (const [i, name] of ['edit-1', 'edit-2', 'edit-3', 'edit-4'].entries()) {
    await untilAsked(page, i + 1); // the text before this edit was asked for
    await rename(page, name);
  }
  // Then a change undone within the debounce: the text is edit-4 again, and the conversion
  // asked for edit-4 is superseded by a second one for the same text.
  await untilAsked(page, 5);
  await rename(page, 'edit-5');
  await rename(page, 'edit-4');
  await waitForResult(page, 'name: edit-4');
  // Anything still queued is handed to the worker as edit-4's answer comes back: wait until the
  // worker has answered everything it was given.
  await page.waitForFunction(() => window.inFlight === 0, null, { timeout: 15000 });
  const converted = await page.workers()[0].evaluate(() => self.converted);
  // Six texts were asked for (the initial one, edits 1 to 4, edit-4 again); without the queue
  // the worker runs all six. With it, a text waiting behind a busy worker is replaced by the
  // next one, so at most about one edit per 2.6 s conversion runs (how many depends on how fast
  // this machine types), and the last is the newest.
  assert.equal(converted[0], initial);
  assert.ok(converted.length <= 4, `superseded edits ran: ${converted}`);
  assert.equal(converted.at(-1), 'edit-4');
  const shown = await page.evaluate(() => window.shown);
  assert.ok(!shown.some((t) => t.includes('superseded')), `a superseded conversion was shown: ${shown.find((t) => t.includes('superseded'))}`);
  assert.ok(!shown.some((t) => /name: edit-[1-3]\b/.test(t)), 'an answer for an older edit was shown');
  assert.match(await result(page).textContent(), /name: edit-4\b/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a text waiting behind a busy worker gets its own 5 s: the wait is not counted', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // 2.8 s per conversion: the edit below is queued about 0.2 s (the debounce) after the first
  // text went to the worker, waits the rest of that one's 2.8 s, then takes 2.8 s of its own. So
  // it answers more than 5 s after it was queued (a watchdog counting the wait would stop it),
  // and 2.8 s plus the conversion after the worker took it, which leaves the conversion 2.2 s.
  await context.route(WORKER, (route) => route.fulfill(js(slowWorker(2800))));
  await context.addInitScript(countInFlight);
  const { page, errors } = await openMigrate(context);
  // The first conversion is with the worker: the edit below waits behind it.
  await page.waitForFunction(() => window.inFlight === 1, null, { timeout: 15000 });
  await rename(page, 'behind-busy');
  await waitForResult(page, 'name: behind-busy');
  assert.doesNotMatch(await result(page).textContent(), /did not finish within/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a conversion that does not answer within 5 s is reported, and the next edit gets a new worker', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let served = 0;
  await context.route(WORKER, (route) => (served++ === 0 ? route.fulfill(js(HUNG_WORKER)) : route.continue()));
  const downloads = countModuleDownloads(context);
  const { page, errors } = await openMigrate(context);
  const started = Date.now();
  const alert = page.locator(`${WIDGET} .migrate-result [role=alert]`);
  await alert.waitFor({ timeout: 15000 });
  const waited = Date.now() - started;
  assert.match(await alert.textContent(), /did not finish within 5 seconds, so it was stopped/);
  assert.ok(waited >= 4500, `the message came after ${waited} ms, before the 5 s were up`);
  const hung = page.workers()[0];
  // The hung worker is gone; an edit starts the real one, which converts it.
  await rename(page, 'after-restart');
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

test('on a slow connection the sample converts: the download shows its progress and is not counted in the 5 s', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const downloads = countModuleDownloads(context);
  const { page, errors } = await openMigrateThrottled(context);
  const sample = /name: (\S+)/.exec(await page.locator(`${WIDGET} #m-input`).inputValue())[1];
  // The reader sees the download going, with its size: the server sends Content-Length.
  const bar = page.locator(`${WIDGET} .migrate-result progress`);
  await bar.waitFor({ timeout: 30000 });
  const loadingSeen = Date.now();
  assert.match(await page.locator(`${WIDGET} .migrate-result [role=status]`).textContent(), /Loading the converter/);
  const max = Number(await bar.getAttribute('max'));
  assert.ok(max > 1_000_000, `the bar's total is the module's size: ${max}`);
  await page.waitForFunction(
    (sel) => {
      const bar = document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result progress');
      return bar && Number(bar.value) > 0 && Number(bar.value) < Number(bar.max);
    },
    WIDGET,
    { timeout: 30000 },
  );
  assert.match(await page.locator(`${WIDGET} .loading-size`).textContent(), /^\d+\.\d MB of 1\.\d MB$/);
  await waitForResult(page, `name: ${sample}`, 90000);
  const took = Date.now() - loadingSeen;
  // The module took longer than the watchdog allows a conversion: counting it would have
  // stopped this one (the defect this guards).
  assert.ok(took > 5000, `the download took ${took} ms: too fast to tell a counted download apart`);
  assert.doesNotMatch(await result(page).textContent(), /did not finish within/);
  assert.equal(downloads.n, 1, 'the module was downloaded once');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a slow connection a hung conversion is still stopped 5 s after the module arrived', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(WORKER, (route) => route.fulfill(js(HUNG_WORKER)));
  const { page, errors } = await openMigrateThrottled(context);
  // The download's end: the bar full (its last progress report).
  await page.waitForFunction(
    (sel) => {
      const bar = document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result progress');
      return bar && Number(bar.value) === Number(bar.max);
    },
    WIDGET,
    { timeout: 60000, polling: 50 },
  );
  const downloaded = Date.now();
  const alert = page.locator(`${WIDGET} .migrate-result [role=alert]`);
  await alert.waitFor({ timeout: 15000 });
  const waited = Date.now() - downloaded;
  assert.match(await alert.textContent(), /did not finish within 5 seconds, so it was stopped/);
  // Counted from the hand-over, which follows the download (and the module's compilation).
  assert.ok(waited >= 4500 && waited < 12000, `the message came ${waited} ms after the download ended`);
  assert.deepEqual(errors, []);
  await context.close();
});
