// The post's own figures and code blocks (outside the widgets) as a reader sees them, measured in
// headless Chromium on dist/: no Copy button hides code or text at a desktop's widths, nor moves
// any when it is added; on a phone the "What Kubernetes runs" and "What changes for your pods"
// figures get the column's whole width; the env tables of "What Kubernetes runs" fill their
// boxes. Each was found reading screenshots of the whole post (session 24).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, nextFrames } from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(() => browser?.close());

/** Each Copy button of the post's code blocks that lies over text of the page, with that text. */
const coveredText = (page) =>
  page.evaluate(() => {
    const article = document.querySelector('article');
    const texts = [];
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, (n) => (n.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT));
    while (walker.nextNode()) if (!walker.currentNode.parentElement.closest('.copy-block, [data-trainer-v2-explorer]')) texts.push(walker.currentNode);
    const covered = [];
    for (const button of article.querySelectorAll('.copy-block-host > .copy-block')) {
      const b = button.getBoundingClientRect();
      for (const text of texts) {
        const range = document.createRange();
        range.selectNodeContents(text);
        // Only what the reader can see: text scrolled or clipped out of its boxes (a block that
        // scrolls sideways, the YAML column that scrolls within the viewport) is not covered.
        const clip = { left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity };
        for (let box = text.parentElement; box !== article; box = box.parentElement) {
          if (getComputedStyle(box).overflow === 'visible') continue;
          const c = box.getBoundingClientRect();
          Object.assign(clip, { left: Math.max(clip.left, c.left), right: Math.min(clip.right, c.right), top: Math.max(clip.top, c.top), bottom: Math.min(clip.bottom, c.bottom) });
        }
        for (const r of range.getClientRects()) {
          const [left, right, top, bottom] = [Math.max(r.left, clip.left), Math.min(r.right, clip.right), Math.max(r.top, clip.top), Math.min(r.bottom, clip.bottom)];
          if (left < Math.min(right, b.right - 1) && right > b.left + 1 && top < Math.min(bottom, b.bottom - 1) && bottom > b.top + 1) {
            covered.push(`${button.getAttribute('aria-label')}: "${text.data.trim().slice(0, 60)}"`);
          }
        }
      }
    }
    return [...new Set(covered)];
  });

for (const width of [1280, 800, 601]) {
  test(`at ${width} px no Copy button of the post's code blocks hides code or text`, async () => {
    // At 1280 px the button sat over each block's top right corner and hid the end of a long first
    // line: the comma ending the first comment line of the gang-scheduling and failure-handling
    // snippets, a stretch of the comment opening each YAML block of "What Kubernetes runs".
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(new URL('#gang-scheduling', BASE).href);
    await page.waitForSelector('.copy-block-host > .copy-block');
    assert.deepEqual(await coveredText(page), []);
    await context.close();
  });
}

for (const [width, phone] of [[1280, false], [700, false], [390, true]]) {
  test(`at ${width} px adding the Copy buttons moves nothing for a reader who landed on #install`, async () => {
    // copy-blocks.js adds them once the page is idle. On a row of their own above each block (a
    // phone's place for them) they pushed the text the reader was reading down: 0.69 of a layout
    // shift at 390 px.
    const context = await browser.newContext({ viewport: { width, height: 800 }, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__shifts.push(`${e.value.toFixed(4)}: ${e.sources.map((s) => `${s.node?.nodeName}.${s.node?.className ?? ''}`).join(', ')}`);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(new URL('#install', BASE).href);
    await page.waitForSelector('.copy-block-host > .copy-block');
    await nextFrames(page); // a layout-shift entry is reported after the frame it happened in
    assert.deepEqual(await page.evaluate(() => window.__shifts), []);
    await context.close();
  });
}

test('on a 375 px phone the figures of "What Kubernetes runs" and of the pod changes take the whole column', async () => {
  // The browser's default figure margins (40 px each side) left them 255 px of the column's 335:
  // their env tables and YAML scrolled sideways where the post's other figures had room.
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(BASE);
  const widths = await page.evaluate(() => {
    const column = document.querySelector('article').getBoundingClientRect();
    return [...document.querySelectorAll('figure.k8s-preset, figure.pods-preset')].map((f) => {
      const box = f.getBoundingClientRect();
      return `${f.className}: ${Math.round(box.left - column.left)} to ${Math.round(column.right - box.right)} px from the column's edges`;
    });
  });
  assert.equal(widths.length, 4, widths.join('\n'));
  assert.deepEqual(
    widths.filter((w) => !w.endsWith(': 0 to 0 px from the column\'s edges')),
    [],
  );
  await context.close();
});

test('at 1280 px each env table of the "What Kubernetes runs" figures fills its bordered box', async () => {
  // The page's own table rule (display: block, for tables that scroll) left the rows their
  // content's width inside a box of the column's: row lines stopped short of the box's border.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(BASE);
  const short = await page.evaluate(() =>
    [...document.querySelectorAll('figure.k8s-preset .k8s-env-wrap')]
      .map((box) => ({ box: box.clientWidth, row: Math.round(box.querySelector('tr').getBoundingClientRect().width) }))
      .filter(({ box, row }) => Math.abs(box - row) > 1)
      .map(({ box, row }) => `rows ${row} px in a ${box} px box`),
  );
  assert.deepEqual(short, []);
  await context.close();
});
