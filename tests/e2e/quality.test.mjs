// Accessibility (axe-core, light and dark) and the strict Content-Security-Policy, on dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { BASE, launch, mountAll } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve(process.env.AXE_CORE ?? 'axe-core/axe.min.js');
const CSP_BASE = process.env.CSP_BASE_URL;
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

for (const [scheme, query] of [['light', ''], ['dark', ''], ['light', '?mode=migrate']]) {
  test(`axe finds no violations (${scheme}${query ? ', migrate mode' : ''})`, async () => {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(new URL(query, BASE).href);
    await mountAll(page);
    if (query) {
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-trainer-v2-explorer]')].some((el) =>
          el.shadowRoot?.querySelector('.migrate-result')?.textContent.includes('TrainJob'),
        ),
      );
    }
    await page.addScriptTag({ path: AXE });
    const results = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
    const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length}× e.g. ${v.nodes[0]?.target?.join(' ')} ${v.nodes[0]?.failureSummary ?? ''}`);
    assert.deepEqual(summary, []);
    await context.close();
  });
}

test('the post and the widget work under the strict CSP', { skip: !CSP_BASE && 'no CSP server' }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(new URL('?mode=migrate', CSP_BASE).href);
  assert.match(response.headers()['content-security-policy'], /wasm-unsafe-eval/);
  const n = await mountAll(page);
  assert.ok(n >= 4);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-trainer-v2-explorer]')].some((el) =>
      el.shadowRoot?.querySelector('.migrate-result')?.textContent.includes('TrainJob'),
    ),
  );
  // The widget's stylesheet applied (a constructable sheet is allowed by style-src 'self').
  const styled = await page.evaluate(() => {
    const root = document.querySelector('[data-trainer-v2-explorer]').shadowRoot;
    return getComputedStyle(root.querySelector('.tv2x')).borderTopStyle;
  });
  assert.equal(styled, 'solid');
  assert.deepEqual(errors, []);
  await context.close();
});
