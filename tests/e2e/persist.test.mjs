// The selection in the page's address and storage (src/ui/browser.rs `persist`): written once a
// run of changes settles (PERSIST_MS after the last), not at each click, where history.replaceState
// held up the frame that shows the click; and still there for a reader who copies the address or
// reloads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, MAIN_WIDGET, rendered } from './helpers.mjs';

/** src/ui/browser.rs PERSIST_MS. */
const PERSIST_MS = 200;
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const framework = (page) => new URL(page.url()).searchParams.get('framework');
const checked = (page) =>
  page.evaluate((main) => document.querySelector(main).shadowRoot.querySelector('.framework [aria-checked="true"]')?.dataset.value, MAIN_WIDGET);

test('a run of clicks writes the address and storage once, with the last choice, which a reload shows', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The page's timers on a held clock: the test says when time passes, so load cannot move it.
  const start = Date.parse('2026-01-01T00:00:00Z');
  await context.clock.install({ time: start });
  await context.clock.pauseAt(start);
  await context.addInitScript(() => {
    window.__writes = [];
    const replace = History.prototype.replaceState;
    History.prototype.replaceState = function (...args) {
      window.__writes.push(String(args[2]));
      return replace.apply(this, args);
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL('#user-experience', BASE).href);
  await page.waitForSelector(rendered(MAIN_WIDGET), { state: 'attached', timeout: 0 });
  const all = await page.evaluate((main) => [...document.querySelector(main).shadowRoot.querySelectorAll('.framework [data-value]')].map((el) => el.dataset.value), MAIN_WIDGET);
  const first = await checked(page);
  const run = all.filter((f) => f !== first).slice(0, 3);
  assert.equal(run.length, 3, all.join());

  // Three clicks 50 ms apart on the page's clock: each shows at once, none is written yet.
  for (const value of run) {
    await page.evaluate(([main, value]) => document.querySelector(main).shadowRoot.querySelector(`.framework [data-value="${value}"]`).click(), [MAIN_WIDGET, value]);
    assert.equal(await checked(page), value);
    await page.clock.runFor(50);
  }
  assert.deepEqual(await page.evaluate(() => window.__writes), [], 'nothing written while the reader clicks');
  assert.equal(framework(page), null);

  // PERSIST_MS after the last click: one write, of the last choice, the fragment kept.
  await page.clock.runFor(PERSIST_MS);
  const writes = await page.evaluate(() => window.__writes);
  assert.equal(writes.length, 1, writes.join(' '));
  assert.equal(framework(page), run[2]);
  assert.equal(new URL(page.url()).hash, '#user-experience');
  assert.match(await page.evaluate(() => localStorage.getItem('trainer-v2-explorer')), new RegExp(`framework=${run[2]}`));

  // What a reader copies now is what a reload shows.
  await page.reload();
  await page.waitForSelector(rendered(MAIN_WIDGET), { state: 'attached', timeout: 0 });
  assert.equal(await checked(page), run[2]);
  assert.deepEqual(errors, []);
  await context.close();
});
