// The widget's layout as the last screenshots showed it broken (issue 34), measured in headless
// Chromium on dist/: on a phone nothing sticky covers what "What Kubernetes runs" lists; on a
// desktop its YAML column never scrolls sideways as one piece (each block scrolls, or wraps, by
// itself); migrate mode's pod table gives its values room; every placeholder is whole; and at
// 390 px no value of a table, nor a wrapped code line, breaks inside a word.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, frames, launch, MAIN_WIDGET, openMigrate, openPane, rendered, scrollAsReader, wrapDrawn } from './helpers.mjs';

const REAL_V1 = process.env.TRAINER_REAL_V1 ?? '../shared/real-v1';

let browser;
before(async () => (browser = await launch()));
after(() => browser?.close());

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const phone = (width) => ({ viewport: { width, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/** "What Kubernetes runs" opened for `query`, once its env table is in. */
async function k8s(options, query) {
  const context = await browser.newContext(options);
  const { page, errors } = await openPane(context, query, 'k8s-pane');
  await page.waitForFunction((sel) => document.querySelector(sel)?.shadowRoot?.querySelector('.k8s-pane .k8s-yaml pre .ln'), MAIN_WIDGET, { timeout: 15000 });
  await frames(page);
  return { page, errors };
}

/** Migrate mode with `job` converted (the built-in sample when null), its pod comparison in and styled. */
async function migrate(options, job = null) {
  const { page, errors } = await openMigrate(await browser.newContext(options), job);
  await page.waitForFunction(
    ([sel, name]) => {
      const root = document.querySelector(sel)?.shadowRoot;
      const section = root?.querySelector('.pods-changes');
      return section && (!name || section.textContent.includes(name)) && getComputedStyle(section).borderTopStyle === 'solid';
    },
    [MAIN_WIDGET, job && job.match(/^\s*name:\s*"?([^"\s]+)/m)[1]],
    { timeout: 15000 },
  );
  await frames(page);
  return { page, errors };
}

/** In the page: for each element of `selector` under `root` (a shadow root's host selector, or
 * null for the document), every place where a row of text ends between two word characters
 * (letters, digits, `_`): `tensorfl|ow`. A word wider than its whole box may break (the last
 * resort of overflow-wrap), so it is not counted. Breaks at spaces and punctuation are fine. */
function wordBreaks(page, host, selector) {
  return page.evaluate(
    ([host, selector]) => {
      const root = host ? document.querySelector(host).shadowRoot : document;
      const WORD = /[A-Za-z0-9_]/;
      const found = [];
      for (const el of root.querySelectorAll(selector)) {
        if (!el.getClientRects().length) continue; // folded away
        // The box the text wraps in: the element, or its nearest block ancestor for inline code.
        let box = el;
        while (getComputedStyle(box).display === 'inline' && box.parentElement) box = box.parentElement;
        const style = getComputedStyle(box);
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const chars = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode()); ) for (let i = 0; i < node.data.length; i++) chars.push([node, i]);
        const rects = chars.map(([node, i]) => {
          if (!WORD.test(node.data[i])) return null;
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const all = range.getClientRects();
          return all[all.length - 1] ?? null;
        });
        const ch = (k) => chars[k][0].data[chars[k][1]];
        // Text in two blocks (a list item's line, then a block under it) is two runs, not one word.
        const blockOf = (node) => {
          let el = node.parentElement;
          while (getComputedStyle(el).display.startsWith('inline') && el !== box) el = el.parentElement;
          return el;
        };
        for (let k = 0; k + 1 < chars.length; k++) {
          const [a, b] = [rects[k], rects[k + 1]];
          if (!a || !b || !a.width || !b.width || b.top <= a.top + a.height / 2) continue;
          if (chars[k][0] !== chars[k + 1][0] && blockOf(chars[k][0]) !== blockOf(chars[k + 1][0])) continue;
          let start = k;
          while (start > 0 && rects[start - 1]) start--;
          let end = k + 1;
          while (end + 1 < chars.length && rects[end + 1]) end++;
          let width = 0;
          for (let j = start; j <= end; j++) width += rects[j].width;
          if (width > room) continue; // a single word longer than the box: the last resort
          let word = '';
          for (let j = start; j <= end; j++) word += ch(j) + (j === k ? '|' : '');
          found.push(`${word} (in ${box.tagName.toLowerCase()}.${[...box.classList].join('.')}: ${box.textContent.trim().slice(0, 60)})`);
        }
      }
      return found;
    },
    [host, selector],
  );
}

test('on a 375 px phone nothing sticky covers an item of "What Kubernetes runs" (the PET_MASTER_* rows)', async () => {
  const { page, errors } = await k8s(phone(375), 'persona=data-scientist&framework=pytorch&nodes=2&gpus=1');
  const hidden = await page.evaluate(async (sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const covered = [];
    const items = [...root.querySelectorAll('.k8s-pane .k8s-items [data-src]')];
    for (const item of items) {
      // At the bottom of the window and at its top: what the reader sees of it there is the item.
      for (const block of ['end', 'start']) {
        item.scrollIntoView({ block, behavior: 'instant' });
        await frame();
        const r = item.getBoundingClientRect();
        const [x, y] = [r.left + Math.min(20, r.width / 2), r.top + r.height / 2];
        const top = root.elementFromPoint(x, y);
        if (!item.contains(top)) covered.push(`${item.dataset.env ?? item.textContent.slice(0, 30)} at the ${block}: under ${top?.tagName.toLowerCase()}.${top?.className}`);
      }
    }
    return { covered, items: items.length, env: items.filter((i) => i.dataset.env?.startsWith('PET_MASTER')).length };
  }, MAIN_WIDGET);
  assert.equal(hidden.env, 2, 'PET_MASTER_ADDR and PET_MASTER_PORT are items');
  assert.deepEqual(hidden.covered, []);
  assert.deepEqual(errors, []);
});

test('on a desktop the YAML column of "What Kubernetes runs" never scrolls sideways: each block scrolls, or wraps, by itself', async () => {
  const { page, errors } = await k8s(DESKTOP, 'persona=data-scientist&framework=pytorch&nodes=2&gpus=1');
  const measure = () =>
    page.evaluate((sel) => {
      const column = document.querySelector(sel).shadowRoot.querySelector('.k8s-pane .k8s-yaml');
      const edge = column.getBoundingClientRect().right;
      return {
        column: { width: column.clientWidth, content: column.scrollWidth },
        blocks: [...column.querySelectorAll('pre')].map((pre) => ({
          sticksOut: Math.round(pre.getBoundingClientRect().right - edge),
          scrolls: pre.scrollWidth > pre.clientWidth,
        })),
      };
    }, MAIN_WIDGET);
  let seen = await measure();
  assert.ok(seen.column.content <= seen.column.width, `the column is ${seen.column.width} px wide and its contents ${seen.column.content} px`);
  assert.deepEqual(seen.blocks.map((b) => b.sticksOut > 0), [false, false], 'a block sticks out of the column');
  // The runtime's long comment lines scroll inside their own block.
  assert.ok(seen.blocks.some((b) => b.scrolls), JSON.stringify(seen));
  // Wrapped, no block scrolls, and the column still does not.
  await page.locator(`${MAIN_WIDGET} .k8s-pane .wrap-toggle input`).check();
  await wrapDrawn(page, true);
  seen = await measure();
  assert.ok(seen.column.content <= seen.column.width, JSON.stringify(seen.column));
  assert.deepEqual(seen.blocks.map((b) => b.scrolls), [false, false], 'a wrapped block still scrolls');
  assert.deepEqual(errors, []);
});

test("on a desktop migrate mode's pod table gives every value room: no cell narrower than 24 characters", async () => {
  // AWS's elastic PyTorchJob: its V2 pods lack variables its V1 pods had (PET_RDZV_*), so it
  // has an env table (the sample's variables are all still set, so it has none).
  const { page, errors } = await migrate(DESKTOP, readFileSync(join(REAL_V1, '07-awsdoeks-imagenet-elastic-etcd.yaml'), 'utf8'));
  const tables = await page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelectorAll('.pods-changes .pods-env td').length, MAIN_WIDGET);
  assert.ok(tables > 0, 'no env table to measure');
  const cells = await page.evaluate((sel) => {
    const section = document.querySelector(sel).shadowRoot.querySelector('.pods-changes');
    const ch = (() => {
      const probe = document.createElement('code');
      probe.textContent = '0'.repeat(24);
      section.querySelector('.pods-env td').append(probe);
      const w = probe.getBoundingClientRect().width;
      probe.remove();
      return w;
    })();
    return [...section.querySelectorAll('.pods-env tbody td')]
      .map((td) => ({ label: td.dataset.label, text: td.innerText.slice(0, 30), width: Math.round(td.clientWidth), need: Math.round(ch) }))
      .filter((c) => c.width < c.need);
  }, MAIN_WIDGET);
  assert.deepEqual(cells, [], 'squeezed cells');
  assert.deepEqual(await wordBreaks(page, MAIN_WIDGET, '.pods-env td code'), []);
  assert.deepEqual(errors, []);
});

for (const [name, options] of [['1280 px', DESKTOP], ['375 px', phone(375)], ['390 px', phone(390)]]) {
  test(`at ${name} every parameter field shows its whole placeholder`, async () => {
    const cut = [];
    for (const query of ['persona=platform-engineer&framework=pytorch', 'persona=data-scientist&framework=torchtune']) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await page.goto(new URL(`?${query}#user-experience`, BASE).href);
      await scrollAsReader(page, MAIN_WIDGET);
      await page.waitForSelector(rendered(MAIN_WIDGET), { state: 'attached', timeout: 15000 });
      await frames(page);
      cut.push(
        ...(await page.evaluate((sel) => {
          const canvas = document.createElement('canvas').getContext('2d');
          return [...document.querySelector(sel).shadowRoot.querySelectorAll('.params input[placeholder]')]
            .filter((input) => input.placeholder)
            .map((input) => {
              const style = getComputedStyle(input);
              canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
              const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
              return { id: input.id, placeholder: input.placeholder, text: Math.ceil(canvas.measureText(input.placeholder).width), room };
            })
            .filter((f) => f.text > f.room);
        }, MAIN_WIDGET)),
      );
      await context.close();
    }
    assert.deepEqual(cut, []);
  });
}

const CODE = '.panes pre > code';

for (const width of [390, 375]) {
  test(`at ${width} px no value of a table and no wrapped code line breaks inside a word, and no table scrolls sideways`, async () => {
    // The panes, wrapped (a phone's default), for the frameworks whose lines broke (tensorfl|ow, func=trai|n).
    for (const framework of ['pytorch', 'tensorflow', 'jax']) {
      const { page } = await k8s(phone(width), `persona=data-scientist&framework=${framework}`);
      assert.equal(await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().isChecked(), true, 'a phone starts wrapped');
      assert.deepEqual(await wordBreaks(page, MAIN_WIDGET, CODE), [], `${framework}: the panes`);
      assert.deepEqual(await wordBreaks(page, MAIN_WIDGET, '.k8s-pane td, .k8s-pane li'), [], `${framework}: What Kubernetes runs`);
      await page.locator(`${MAIN_WIDGET} .k8s-pane .wrap-toggle input`).check();
      await frames(page);
      assert.deepEqual(await wordBreaks(page, MAIN_WIDGET, '.k8s-pane .k8s-yaml pre > code'), [], `${framework}: What Kubernetes runs, its YAML wrapped`);
      await page.context().close();
    }
    // The post's own tables.
    const context = await browser.newContext(phone(width));
    const post = await context.newPage();
    await post.goto(new URL('#user-experience', BASE).href);
    assert.deepEqual(await wordBreaks(post, null, '.post table td'), [], 'the post');
    await context.close();
    // Migrate mode: the sample and a real PyTorchJob; the field report and the pods' table.
    for (const job of [null, readFileSync(join(REAL_V1, '14-coreweave-imagenet-pytorchjob.yaml'), 'utf8')]) {
      const { page, errors } = await migrate(phone(width), job);
      assert.deepEqual(await wordBreaks(page, MAIN_WIDGET, '.migrate-result td, .pods-changes td, .pods-changes li'), [], 'migrate mode');
      // Its YAML (the TrainJob, the V1 job's marked lines), wrapped as a phone starts.
      assert.deepEqual(await wordBreaks(page, MAIN_WIDGET, '.migrate-result pre > code'), [], "migrate mode's YAML");
      const wide = await page.evaluate((sel) =>
        [...document.querySelector(sel).shadowRoot.querySelectorAll('.table-wrap, .pods-env, .k8s-env-wrap')]
          .filter((box) => box.getClientRects().length && box.scrollWidth > box.clientWidth)
          .map((box) => `${box.className}: ${box.scrollWidth} in ${box.clientWidth}`),
      MAIN_WIDGET);
      assert.deepEqual(wide, [], 'tables that scroll sideways');
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  });
}

test("at 390 px the Copy button of the post's own code blocks covers none of their code", async () => {
  // The button sat over the block's top right corner, and on a phone a long first line (the
  // helm install command) ran under it: the reader could not see what it hid.
  const context = await browser.newContext(phone(390));
  const page = await context.newPage();
  await page.goto(new URL('#getting-started', BASE).href);
  await page.waitForSelector('.copy-block-host > .copy-block');
  const covered = await page.evaluate(() =>
    [...document.querySelectorAll('.copy-block-host')]
      .map((host) => {
        const [button, pre] = [host.querySelector(':scope > .copy-block'), host.querySelector(':scope > pre')];
        const b = button.getBoundingClientRect();
        const p = pre.getBoundingClientRect();
        const overlap = b.bottom > p.top && b.top < p.bottom && b.right > p.left && b.left < p.right;
        return overlap && pre.textContent.split('\n')[0].slice(0, 40);
      })
      .filter(Boolean),
  );
  assert.deepEqual(covered, []);
  await context.close();
});
