// A wrapped line of code goes on under its own key, indented past it, and never at column 0,
// where it read as a new line outside its block (issue 34: migrate mode, "What Kubernetes runs"
// and the explorer's panes on a 375 px phone, wrapped as a phone starts). A line too deep for the
// box to hold its text beside its indent does not wrap: the box scrolls sideways for it, rather
// than put its key on a row of its own at column 0 (real-v1's CoreWeave PyTorchJob, whose
// runtimePatches nest its affinity and volumes 30 columns deep). Measured in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, frames, launch, MAIN_WIDGET, openMigrate, openPane } from './helpers.mjs';

const REAL_V1 = process.env.TRAINER_REAL_V1 ?? '../shared/real-v1';
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let browser;
before(async () => (browser = await launch()));
after(() => browser?.close());

/** In the page: every line of each `selector` code box under the widget's shadow root (or the
 * page's own, `host` null), measured character by character. For a line that wraps, its key
 * (first character after the indent and any `- ` list marker) must be on its first row, and every
 * further row must start at least one column right of that key. Returns the lines that break
 * either rule, and how many wrapped. */
function measure(page, selector, host = MAIN_WIDGET) {
  return page.evaluate(
    ([host, selector]) => {
      const root = host ? document.querySelector(host).shadowRoot : document;
      const bad = [];
      let wrapped = 0;
      for (const code of root.querySelectorAll(selector)) {
        if (!code.getClientRects().length) continue; // folded away
        // The code's characters in order, each with its last client rect (a row's end).
        const chars = [];
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode()); ) for (let i = 0; i < node.data.length; i++) chars.push([node, i]);
        const lines = [[]];
        for (const [node, i] of chars) {
          if (node.data[i] === '\n') {
            lines.push([]);
            continue;
          }
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rects = range.getClientRects();
          lines[lines.length - 1].push({ c: node.data[i], r: rects[rects.length - 1] });
        }
        for (const line of lines) {
          const text = line.map((x) => x.c).join('');
          const key = text.search(/[^ -]|-(?! )/);
          if (key < 0 || !line[key].r) continue;
          const ch = line[key].r.width;
          // Rows: a character whose top is below the previous one's bottom starts a new row.
          const rows = [[line[0]]];
          for (const x of line.slice(1)) {
            const last = rows[rows.length - 1].at(-1);
            if (x.r && last.r && x.r.top >= last.r.bottom - 1) rows.push([x]);
            else rows[rows.length - 1].push(x);
          }
          if (rows.length < 2) continue;
          wrapped++;
          const short = text.trim().slice(0, 40);
          if (!rows[0].some((x) => x === line[key])) {
            bad.push(`${short}: its key is not on its first row (${rows[0].length} columns of indent)`);
            continue;
          }
          const keyLeft = line[key].r.left;
          for (const row of rows.slice(1)) {
            const left = Math.min(...row.filter((x) => x.r && x.c !== ' ').map((x) => x.r.left));
            if (left < keyLeft + ch - 0.5) {
              bad.push(`${short}: a row starts at ${Math.round(left)} px, its key at ${Math.round(keyLeft)} px`);
              break;
            }
          }
        }
      }
      return { bad, wrapped };
    },
    [host, selector],
  );
}

test('on a 375 px phone migrate mode wraps a line under its own key, and a deep line scrolls instead', async () => {
  const job = readFileSync(join(REAL_V1, '14-coreweave-imagenet-pytorchjob.yaml'), 'utf8');
  const { page, errors } = await openMigrate(await browser.newContext(PHONE), job);
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result')?.textContent.includes('affinity'),
    MAIN_WIDGET,
    { timeout: 15000 },
  );
  await frames(page);
  assert.equal(await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().isChecked(), true, 'a phone starts wrapped');
  const { bad, wrapped } = await measure(page, '.migrate-result pre > code');
  assert.ok(wrapped >= 10, `the TrainJob's long lines wrap (${wrapped})`);
  assert.deepEqual(bad, []);
  // The runtimePatches' affinity stays readable: its deepest key is one row, in a box that scrolls.
  const deep = await page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const pre = [...root.querySelectorAll('.migrate-result figure.obj pre')].find((p) => p.textContent.includes('nodeSelectorTerms'));
    return { scrolls: pre.scrollWidth > pre.clientWidth, style: getComputedStyle(pre).overflowX };
  }, MAIN_WIDGET);
  assert.deepEqual(deep, { scrolls: true, style: 'auto' }, 'the box with the deep lines scrolls sideways');
  assert.deepEqual(errors, []);
});

test('on a 375 px phone "What Kubernetes runs" and the panes wrap a line under its own key', async () => {
  for (const query of ['persona=data-scientist&framework=pytorch', 'persona=platform-engineer&framework=tensorflow']) {
    const { page, errors } = await openPane(await browser.newContext(PHONE), query, 'k8s-pane');
    await page.waitForFunction((sel) => document.querySelector(sel)?.shadowRoot?.querySelector('.k8s-pane .k8s-yaml pre .ln'), MAIN_WIDGET, {
      timeout: 15000,
    });
    await page.locator(`${MAIN_WIDGET} .k8s-pane .wrap-toggle input`).check();
    await frames(page);
    const panes = await measure(page, '.panes pre > code');
    assert.ok(panes.wrapped >= 1, `${query}: some line of the panes wraps (${panes.wrapped})`);
    assert.deepEqual(panes.bad, [], `${query}: the panes`);
    const k8s = await measure(page, '.k8s-pane .k8s-yaml pre > code');
    assert.ok(k8s.wrapped >= 1, `${query}: some line of What Kubernetes runs wraps (${k8s.wrapped})`);
    assert.deepEqual(k8s.bad, [], `${query}: What Kubernetes runs`);
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

// The post's own "What Kubernetes runs" figures (static HTML, no "Wrap long lines" switch, and
// outside the widget whose stylesheet sets each line's hang) wrapped a long line at its <wbr>s
// and went on at column 0: `org/v1alpha1` under `apiVersion`, `framework: torch` as if a key of
// its own. Their long lines now scroll in their box, as the post's other code does.
test('on a 375 px phone the post\'s own "What Kubernetes runs" YAML scrolls a long line, never wraps it to column 0', async () => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(BASE);
  const { bad, wrapped } = await measure(page, '.k8s-preset .k8s-yaml pre > code', null);
  assert.deepEqual(bad, []);
  assert.equal(wrapped, 0, 'a line of the presets wraps');
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll('.k8s-preset .k8s-yaml pre')].map((pre) => ({ scrolls: pre.scrollWidth > pre.clientWidth, overflow: getComputedStyle(pre).overflowX })),
  );
  assert.ok(boxes.length >= 6, `${boxes.length} preset YAML boxes`);
  assert.ok(boxes.some((b) => b.scrolls), 'no preset box holds a line longer than it');
  assert.ok(boxes.every((b) => b.overflow === 'auto'), JSON.stringify(boxes));
  assert.equal(await page.evaluate(() => document.scrollingElement.scrollWidth), 375, 'the page scrolls sideways');
  assert.deepEqual(errors, []);
  await context.close();
});
