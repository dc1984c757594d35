// End-to-end checks of the built site (make dist) in headless Chromium, as a reader meets it.
// Run by `make test-e2e`, which builds dist/ and serves it; BASE_URL points at that server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, mountAll, nextFrames, waitForConvertedTrainJob } from './helpers.mjs';

let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function open(path = '', options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const foreign = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(new URL(BASE).origin) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await page.goto(new URL(path, BASE).href);
  return { page, errors, foreign, context };
}


const checked = (page, index, group) =>
  page.evaluate(
    ([index, group]) =>
      document.querySelectorAll('[data-trainer-v2-explorer]')[index].shadowRoot
        .querySelector(`.${group} [aria-checked="true"]`)
        .getAttribute('data-value'),
    [index, group],
  );

test('the post loads without console errors and every instance mounts', async () => {
  const { page, errors, foreign, context } = await open();
  const n = await mountAll(page);
  assert.ok(n >= 4, `only ${n} mount points`);
  await nextFrames(page);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'no request leaves the origin');
  await context.close();
});

test('every internal anchor resolves', async () => {
  const { page, context } = await open();
  const missing = await page.evaluate(() =>
    [...document.querySelectorAll('a[href^="#"]')]
      .map((a) => a.getAttribute('href').slice(1))
      .filter((id) => !document.getElementById(decodeURIComponent(id))),
  );
  assert.deepEqual(missing, []);
  await context.close();
});

test('instances stay in sync', async () => {
  const { page, context } = await open();
  const n = await mountAll(page);
  // The main explorer is the one without data-compact.
  const main = await page.evaluate(() =>
    [...document.querySelectorAll('[data-trainer-v2-explorer]')].findIndex((el) => !el.hasAttribute('data-compact')),
  );
  await page.evaluate((main) => {
    const root = document.querySelectorAll('[data-trainer-v2-explorer]')[main].shadowRoot;
    root.querySelector('.persona [data-value="platform-engineer"]').click();
  }, main);
  // The presets share only the parameters (data-sync="params"): each keeps the persona its prose
  // describes (issue 22).
  const wanted = await page.evaluate(() =>
    [...document.querySelectorAll('[data-trainer-v2-explorer]')].map((el) => (el.hasAttribute('data-compact') ? el.dataset.persona : 'platform-engineer')),
  );
  // Every instance shows its persona (the assertions below say which one did not, if any).
  await page
    .waitForFunction(
      (wanted) => [...document.querySelectorAll('[data-trainer-v2-explorer]')].every(
        (el, i) => el.shadowRoot.querySelector('.persona [aria-checked="true"]')?.dataset.value === wanted[i],
      ),
      wanted,
      { timeout: 5000 },
    )
    .catch(() => {});
  for (let i = 0; i < n; i++) assert.equal(await checked(page, i, 'persona'), wanted[i], `instance ${i}`);
  // Presets keep their own framework.
  const frameworks = await Promise.all([...Array(n).keys()].map((i) => checked(page, i, 'framework')));
  assert.ok(frameworks.includes('torchtune') && frameworks.includes('deepspeed'), frameworks.join());
  await context.close();
});

test('without JavaScript the page still shows V1 and V2 snippets', async () => {
  const { page, context } = await open('', { javaScriptEnabled: false });
  const text = await page.locator('main').innerText();
  assert.match(text, /kind: TrainJob/);
  assert.match(text, /kind: PyTorchJob/);
  assert.match(text, /kind: ClusterTrainingRuntime/);
  assert.equal(await page.locator('.tv2x-fallback').count(), await page.locator('[data-trainer-v2-explorer]').count());
  await context.close();
});

test('without JavaScript each fallback opens "What Kubernetes runs" for its own TrainJob', async () => {
  const { page, context } = await open('', { javaScriptEnabled: false });
  const fallbacks = page.locator('.tv2x-fallback');
  const n = await fallbacks.count();
  assert.ok(n >= 1);
  for (let i = 0; i < n; i++) {
    const fallback = fallbacks.nth(i);
    const disclosure = fallback.locator('details.tv2x-k8s');
    assert.equal(await disclosure.count(), 1, `fallback ${i} has no "What Kubernetes runs"`);
    await disclosure.locator('summary').scrollIntoViewIfNeeded();
    await disclosure.locator('summary').click(); // <details> opens without JavaScript
    const view = await disclosure.locator('.k8s').innerText();
    // The JobSet is named after the job the fallback's YAML names: the TrainJob for the data
    // scientist; the platform engineer's V2 pane holds only the runtime, and the job the view runs
    // on it is the one the V1 pane names too.
    const yaml = (await fallback.locator('pre').allInnerTexts()).join('\n---\n');
    const jobset = /creates the JobSet (\S+?)\.?\n/.exec(view + '\n')?.[1];
    const refused = /refuses this TrainJob/.test(view);
    assert.ok(jobset || refused, `fallback ${i}: ${view.slice(0, 200)}`);
    if (jobset) assert.match(yaml, new RegExp(`name: ${jobset}\\b`), `fallback ${i}: JobSet ${jobset}`);
    if (jobset) assert.match(view, /Pods/);
  }
  await context.close();
});

test('without JavaScript the page shows the built-in runtimes by release', async () => {
  const { page, context } = await open('', { javaScriptEnabled: false });
  const table = page.locator('main table', { has: page.locator('th', { hasText: 'Built-in runtime' }) });
  assert.equal(await table.count(), 1);
  assert.ok(await table.isVisible());
  const header = await table.locator('th').allInnerTexts();
  assert.deepEqual(header, ['Built-in runtime', 'Since', 'Removed']);
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.innerText.trim())));
  assert.ok(rows.length >= 8, `${rows.length} rows`);
  const minor = (line) => Number(/^v2\.(\d+)$/.exec(line)?.[1]);
  for (const [name, since, removed, ...more] of rows) {
    assert.match(name, /^[a-z0-9.-]+$/, name);
    assert.deepEqual(more, [], name);
    assert.ok(Number.isInteger(minor(since)), `${name} since ${since}`);
    assert.ok(removed === '–' || minor(removed) > minor(since), `${name} removed ${removed} after ${since}`);
  }
  // The release a reader reads about is the one the data says (FACTS.md §b.2, §d).
  assert.deepEqual(rows.find((r) => r[0] === 'mpi-distributed'), ['mpi-distributed', 'v2.0', 'v2.1']);
  assert.deepEqual(rows.find((r) => r[0] === 'jax-distributed')?.slice(1), ['v2.2', '–']);
  await context.close();
});

test('the widget follows the page theme switch', async () => {
  const { page, context } = await open();
  await mountAll(page);
  await page.click('.theme-toggle'); // auto -> dark
  await page
    .waitForFunction(() => /\bdark\b/.test(document.querySelector('[data-trainer-v2-explorer]').shadowRoot.querySelector('.tv2x').className), null, { timeout: 5000 })
    .catch(() => {});
  const cls = await page.evaluate(() => document.querySelector('[data-trainer-v2-explorer]').shadowRoot.querySelector('.tv2x').className);
  assert.match(cls, /\bdark\b/);
  await context.close();
});

test('the converter loads only in migrate mode, and converts there', async () => {
  const { page, context } = await open();
  const fetched = [];
  page.on('request', (r) => fetched.push(r.url()));
  await mountAll(page);
  // The converter's files (pkg-migrate also holds the post's small scripts, loaded at idle time).
  assert.ok(!fetched.some((u) => /pkg-migrate\/(converter|trainer_v2_migrate)/.test(u)), 'readers who only compare never download the converter');
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  await mountAll(page);
  const main = await page.evaluate(() =>
    [...document.querySelectorAll('[data-trainer-v2-explorer]')].findIndex((el) => !el.hasAttribute('data-compact')),
  );
  await page.waitForFunction(
    (main) => document.querySelectorAll('[data-trainer-v2-explorer]')[main].shadowRoot.querySelector('.migrate-result')?.textContent.includes('kind: TrainJob'),
    main,
    { timeout: 15000 },
  );
  assert.ok(fetched.some((u) => u.includes('pkg-migrate/trainer_v2_migrate_bg.wasm')));
  // It converted in a worker: a large paste does not freeze the page.
  assert.ok(page.workers().some((w) => w.url().endsWith('/pkg-migrate/converter-worker.js')), 'converts off the main thread');
  await context.close();
});

test('where the worker cannot start, migrate mode converts on the page instead', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route('**/converter-worker.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  await waitForConvertedTrainJob(page);
  assert.deepEqual(errors, []);
  await context.close();
});
