// What a reader on a 390 px phone met in issue 22's last screenshots: wrapped code lines that lost
// their indent, one note said under every parameter field, and a strike-through that ran past the
// framework's name. In headless Chromium, on dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { frames, launch, MAIN_WIDGET, openWidget } from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(() => browser?.close());

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The post at the main widget with `query`, mounted; the page's errors are collected. */
async function open(query, options = PHONE) {
  const context = await browser.newContext(options);
  return { context, ...(await openWidget(context, query)) };
}

// At 390 px, and at 320 px, the narrowest phone, where the code box holds 31 columns: a line
// short enough to fit has no hang element (crates/html/src/highlight.rs, NEVER_WRAPS), so no
// line that does wrap may be one of them.
for (const width of [390, 320]) test(`with Wrap long lines on a ${width} px phone, a wrapped code line goes on under its own indent, and copying gives the code unchanged`, async () => {
  const { context, page, errors } = await open('persona=data-scientist&framework=tensorflow', { ...PHONE, viewport: { width, height: 844 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The elements that hang a line are made only for wrapping panes: scrolling ones have none.
  // A toggle lands on the widget's next render and the hang elements follow its layout, both
  // later than the next frames when Yew's scheduler had yielded: the count is read once it is what
  // the test expects, or after 5 s, and then asserted (a count that never comes still fails).
  const HANG = '.panes pre > code .ln[class*=" i"]';
  const count = ([MAIN, HANG]) => document.querySelector(MAIN).shadowRoot.querySelectorAll(HANG).length;
  const hangs = (expected) =>
    page
      .waitForFunction(
        ([MAIN, HANG, some]) => {
          const n = document.querySelector(MAIN).shadowRoot.querySelectorAll(HANG).length;
          return some ? n > 0 : n === 0;
        },
        [MAIN_WIDGET, HANG, expected === 'some'],
        { timeout: 5000 },
      )
      .catch(() => {})
      .then(() => page.evaluate(count, [MAIN_WIDGET, HANG]));
  // A phone starts with long lines wrapped: unwrapped first, the panes scroll and hang nothing.
  assert.equal(await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().isChecked(), true, 'a phone starts wrapped');
  await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().uncheck();
  assert.equal(await hangs('none'), 0, 'hang elements while the panes scroll');
  await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().check();
  assert.ok((await hangs('some')) > 0, 'no hang element once the panes wrap');
  const lines = await page.evaluate((MAIN) => {
    const found = [];
    for (const code of document.querySelector(MAIN).shadowRoot.querySelectorAll('.panes pre > code')) {
      // Every character's text node and offset, in order.
      const chars = [];
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode()); ) for (let i = 0; i < node.data.length; i++) chars.push([node, i]);
      const box = (i) => {
        const range = document.createRange();
        range.setStart(chars[i][0], chars[i][1]);
        range.setEnd(chars[i][0], chars[i][1] + 1);
        const rects = range.getClientRects();
        return rects[rects.length - 1];
      };
      const text = code.textContent;
      let start = 0;
      for (const line of text.split('\n')) {
        // The indent a continuation should keep: spaces and YAML's "- " list markers.
        const indent = line.match(/^(?: |- )*/)[0].length;
        const visible = [...line].map((c, i) => i).filter((i) => i >= indent && line[i] !== ' ');
        if (indent > 0 && visible.length > 1) {
          const first = box(start + visible[0]);
          const last = box(start + visible[visible.length - 1]);
          if (last.top > first.top + first.height / 2) {
            // The first character of each later row.
            let rowTop = first.top;
            const continuations = [];
            for (const i of visible) {
              const b = box(start + i);
              if (b.top > rowTop + first.height / 2) {
                continuations.push(Math.round(b.left - first.left));
                rowTop = b.top;
              }
            }
            found.push({ line: line.trim().slice(0, 40), indent, continuations });
          }
        }
        start += line.length + 1;
      }
    }
    return found;
  }, MAIN_WIDGET);
  assert.ok(lines.length > 0, `no indented line wraps at ${width} px: nothing was checked`);
  // Each later row starts at the column of the line's first character (0 px from it), not left of it.
  const lost = lines.filter((l) => l.continuations.some((dx) => dx < -1));
  assert.deepEqual(lost, [], `wrapped lines whose continuation starts left of their indent (dx in px from the line's first character): ${JSON.stringify(lost)}`);

  // What a selection, the box's text and the Copy button give is the code as written.
  const figure = page.locator(`${MAIN_WIDGET} .pane figure.snippet`).last();
  const pre = figure.locator('pre');
  const { selected, inner, content } = await pre.evaluate((pre) => {
    const selection = pre.ownerDocument.getSelection();
    selection.selectAllChildren(pre.querySelector('code'));
    return { selected: selection.toString(), inner: pre.innerText, content: pre.querySelector('code').textContent };
  });
  const trim = (s) => s.replace(/\n+$/, '');
  assert.equal(trim(selected), trim(content));
  assert.equal(trim(inner), trim(content));
  await figure.locator('button.copy').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(trim(copied), trim(content), 'Copy gives the text shown');
  assert.deepEqual(errors, []);
  await context.close();
});

// A hanging line whose first word is longer than the row beside its indent (JAX's
// `coordinator_address=os.environ["JAX_COORDINATOR_ADDRESS"],`) once wrapped right after its
// indent: a row of spaces only, which read as a blank line the code does not have.
for (const width of [390, 320]) test(`with Wrap long lines on a ${width} px phone, no row of a pane shows only an indent`, async () => {
  const { page, errors } = await open('persona=data-scientist&framework=jax', { ...PHONE, viewport: { width, height: 844 } });
  await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().check();
  await frames(page);
  const { blankRows, wrapped } = await page.evaluate((MAIN) => {
    const blankRows = [];
    let wrapped = 0;
    for (const code of document.querySelector(MAIN).shadowRoot.querySelectorAll('.panes pre > code')) {
      const chars = [];
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode()); ) for (let i = 0; i < node.data.length; i++) chars.push([node, i]);
      const box = (i) => {
        const range = document.createRange();
        range.setStart(chars[i][0], chars[i][1]);
        range.setEnd(chars[i][0], chars[i][1] + 1);
        return range.getClientRects()[0];
      };
      const row = parseFloat(getComputedStyle(code).lineHeight);
      // Where the previous line's text ends; a blank line of the code is one row more.
      let start = 0;
      let end = null;
      for (const line of code.textContent.split('\n')) {
        const visible = [...line].map((c, i) => i).filter((i) => line[i] !== ' ');
        if (visible.length === 0) {
          if (end !== null) end += row;
        } else {
          const first = box(start + visible[0]);
          const last = box(start + visible[visible.length - 1]);
          if (last.top > first.top + row / 2) wrapped++;
          if (end !== null && first.top - end > row / 2) blankRows.push(line.trim().slice(0, 40));
          end = last.bottom;
        }
        start += line.length + 1;
      }
    }
    return { blankRows, wrapped };
  }, MAIN_WIDGET);
  assert.ok(wrapped > 0, `no line wraps at ${width} px: nothing was checked`);
  assert.deepEqual(blankRows, [], 'lines that begin a row below an empty one');
  assert.deepEqual(errors, []);
});

test('the note on what the parameter fields shape is said once, above them, and names the fields it is about', async () => {
  for (const [query, expected, notAbout] of [
    // The runtime takes the nodes, GPUs and image (issue 34 item 8); a namespaced copy the namespace too.
    ['persona=platform-engineer&framework=pytorch', 'Every field below but Nodes, GPUs per node and Image shapes the V1 job and each TrainJob, not the runtime.', ['p-nodes', 'p-gpus', 'p-image']],
    ['persona=platform-engineer&framework=pytorch&scope=namespaced', 'Job name, Processes per node and Kueue LocalQueue shape the V1 job and each TrainJob, not the runtime.', ['p-namespace', 'p-nodes', 'p-gpus', 'p-image']],
  ]) {
    const { context, page, errors } = await open(query);
    const seen = await page.evaluate((MAIN) => {
      const params = document.querySelector(MAIN).shadowRoot.querySelector('.params');
      const notes = [...params.querySelectorAll('.msg.note')];
      const firstField = params.querySelector('.field');
      const fields = [...params.querySelectorAll('.field input, .field select')];
      return {
        notes: notes.map((n) => n.textContent),
        above: notes.length === 1 && notes[0].getBoundingClientRect().bottom <= firstField.getBoundingClientRect().top,
        describedBy: Object.fromEntries(fields.map((f) => [f.id, f.getAttribute('aria-describedby')])),
      };
    }, MAIN_WIDGET);
    assert.deepEqual(seen.notes, [expected], query);
    assert.ok(seen.above, `${query}: the note is above the fields`);
    // Each field it is about points a screen reader at it; a field the runtime takes does not.
    for (const [id, describedBy] of Object.entries(seen.describedBy)) {
      assert.equal(describedBy, notAbout.includes(id) ? null : 'p-note', `${query}: ${id}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the release picker strikes only the name of a framework the release lacks, not the space before its mark', async () => {
  for (const options of [PHONE, { viewport: { width: 1280, height: 900 } }]) {
    const { context, page, errors } = await open('release=v2.0', options);
    const marked = await page.evaluate((MAIN) => {
      // A text node is struck when an element it sits in draws a line-through, and no atomic
      // inline (an inline-block, which takes no decoration from outside) stands in between.
      const struck = (node, button) => {
        for (let el = node.parentElement; el; el = el.parentElement) {
          const style = getComputedStyle(el);
          if (style.textDecorationLine.includes('line-through')) return true;
          if (el === button || style.display !== 'inline') return false;
        }
        return false;
      };
      return [...document.querySelector(MAIN).shadowRoot.querySelectorAll('[role=radiogroup].framework button.lacks')].map((button) => {
        const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
        let text = '';
        for (let node; (node = walker.nextNode()); ) if (struck(node, button)) text += node.data;
        return { name: button.textContent, struck: text };
      });
    }, MAIN_WIDGET);
    // TensorFlow and PaddlePaddle are not struck: their V2 path is the runtime `migrate` writes.
    assert.deepEqual(marked.map((m) => m.name), ['JAX not in v2.0', 'XGBoost not in v2.0']);
    // Quoted, so a struck space shows in the failure ("JAX " on main).
    assert.deepEqual(marked.map((m) => JSON.stringify(m.struck)), ['"JAX"', '"XGBoost"']);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// Every table of the post reads on a 390 px phone without a sideways scroll: the rows become
// cards (page.css, data-label from the post's renderer) and no value breaks inside a token.
test('at 390 px no table of the post scrolls sideways', async () => {
  const { context, page } = await open('', { ...PHONE, viewport: { width: 390, height: 844 } });
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('.post table')]
      .filter((t) => !t.closest('[data-trainer-v2-explorer]'))
      .map((t) => {
        const box = t.closest('.k8s-env-wrap, .pods-env') ?? t;
        return { head: t.querySelector('th')?.textContent, over: box.scrollWidth - box.clientWidth };
      })
      .filter((t) => t.over > 0),
  );
  assert.deepEqual(wide, []);
  await context.close();
});
