// The reader's path through the post (dist/), in headless Chromium, as issue 22 walked it: the
// keyboard from the top of the page, what Copy gives after an invalid field, a pasted job across
// view switches, Copy on every code block of the post, a shared link, and a 390 px phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, frames, launch, MAIN_WIDGET, mountAll, nodeModule, rendered, scrollAsReader, tabThroughWidgets, wrapDrawn } from './helpers.mjs';
import { lateRenders } from './late-renders.mjs';

const YAML = nodeModule('yaml');

const MOUNT = '[data-trainer-v2-explorer]';
let browser;
before(async () => (browser = await launch()));
after(() => browser?.close());

async function open(path = '', options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return { context, page, errors, go: () => page.goto(new URL(path, BASE).href) };
}

test('Tab from the top of the post walks into every widget, even one that mounts while the reader is on its fallback', async () => {
  const { context, page, go } = await open();
  // The widget's module arrives once the keyboard reader has reached a fallback: the case of a
  // reader faster than the download, made certain rather than left to the machine's speed.
  let release;
  const arrived = new Promise((r) => (release = r));
  await context.route('**/pkg/*_bg.wasm', async (route) => {
    await arrived;
    await route.continue();
  });
  await go();
  const { total, reached, lost } = await tabThroughWidgets(page, MOUNT, { onFallback: release });
  release();
  assert.ok(total >= 4, `${total} widgets`);
  assert.deepEqual(reached, [...Array(total).keys()], `widgets Tab reached: ${reached.join(', ')} of ${total}; ${lost.join('; ')}`);
  assert.deepEqual(lost, []);
  await context.close();
});

// A keyboard reader can reach a widget's fallback after its mount began and before its first
// render, which comes late when Yew's scheduler has yielded (here each zero-delay timer is 500 ms
// late, late-renders.mjs). The render replaces the fallback, and focus with it: the loader asked
// whether focus was in the fallback when the mount began, not when the render replaced it, and
// left focus on the page's body ("focus left the page when widget 1 mounted", 2 of 2 runs).
test('Tab walks into every widget when each first render comes late', async () => {
  const { context, page, go } = await open();
  await page.addInitScript(lateRenders, 500);
  await go();
  const { total, reached, lost } = await tabThroughWidgets(page, MOUNT);
  assert.ok(total >= 4, `${total} widgets`);
  assert.deepEqual(reached, [...Array(total).keys()], `widgets Tab reached: ${reached.join(', ')} of ${total}; ${lost.join('; ')}`);
  assert.deepEqual(lost, []);
  await context.close();
});

/** Types `value` into the main widget's parameter field `id`, as a reader does. */
async function type(page, id, value) {
  const field = page.locator(`${MAIN_WIDGET} #${id}`);
  await field.fill('');
  await field.pressSequentially(value);
}

const paneText = (page, pane) => page.locator(`${MAIN_WIDGET} .pane.${pane} pre`).first().innerText();

test('an invalid field marks the panes as not updated, and Copy never copies the stale text', async () => {
  const { context, page, errors, go } = await open('?persona=data-scientist&framework=pytorch');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await go();
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  await page.waitForSelector(rendered(MAIN_WIDGET));
  for (const [id, good, goodText, bad] of [
    ['p-nodes', '4', 'numNodes: 4', '0'],
    ['p-name', 'sjob', 'name: sjob', 's/job'],
  ]) {
    await type(page, id, good);
    await page.waitForFunction(([w, t]) => document.querySelector(w).shadowRoot.querySelector('.pane.v2 pre').textContent.includes(t), [MAIN_WIDGET, goodText]);
    await type(page, id, bad);
    // What the reader sees: the panes say they were not updated.
    const stale = page.locator(`${MAIN_WIDGET} .panes-stale`);
    await stale.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await stale.innerText(), /not updated/i);
    // Copy gives nothing stale: each Copy is off and says why, and the clipboard keeps what
    // was there before.
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    for (const pane of ['v2', 'v1']) {
      const copy = page.locator(`${MAIN_WIDGET} .pane.${pane} .copy`).first();
      // Each pane's Copy button is its own component, which may render at the scheduler's next
      // turn: read once it is off, or after 5 s.
      await page
        .waitForFunction(([w, pane]) => document.querySelector(w).shadowRoot.querySelector(`.pane.${pane} .copy`).disabled, [MAIN_WIDGET, pane], { timeout: 5000 })
        .catch(() => {});
      assert.ok(await copy.isDisabled(), `${id}=${bad}: the ${pane} Copy still works`);
      assert.match(await copy.innerText(), /fix the field/i);
      await copy.click({ force: true });
      await frames(page);
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'before', `${id}=${bad}: the ${pane} Copy copied stale text`);
    }
    // Fixing the field brings the panes and Copy back.
    await type(page, id, good);
    await stale.waitFor({ state: 'detached' });
    await page.locator(`${MAIN_WIDGET} .pane.v2 .copy`).first().click();
    await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== 'before'));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await paneText(page, 'v2'));
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a pasted V1 job is kept when the view switches to Compare and back', async () => {
  const { context, page, go } = await open('?mode=migrate');
  await go();
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  const area = page.locator(`${MAIN_WIDGET} #m-input`);
  await area.waitFor();
  const pasted = 'apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: mine\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 3\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: my/image:1\n';
  await area.fill(pasted);
  await page.locator(`${MAIN_WIDGET} .mode [data-value="compare"]`).click();
  await page.locator(`${MAIN_WIDGET} .pane.v2`).waitFor();
  await page.locator(`${MAIN_WIDGET} .mode [data-value="migrate"]`).click();
  assert.equal(await area.inputValue(), pasted);
  await context.close();
});

test('migrate output: one block per object in apply order, each with Copy and a download under its file name, and the kubectl apply line', async () => {
  const { context, page, errors, go } = await open('?mode=migrate&release=v2.0');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await go();
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  // A job whose volumes v2.0's TrainJob cannot hold: the converter writes a runtime for it too.
  const job = 'apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: mine\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: my/image:1\n            volumeMounts:\n            - {name: data, mountPath: /data}\n          volumes:\n          - {name: data, emptyDir: {}}\n';
  await page.locator(`${MAIN_WIDGET} #m-input`).fill(job);
  const blocks = page.locator(`${MAIN_WIDGET} .migrate-result .objects figure.obj`);
  await page.waitForFunction((w) => document.querySelector(w).shadowRoot.querySelector('.objects figure.obj pre')?.textContent.includes('name: mine'), MAIN_WIDGET, { timeout: 20000 });
  const n = await blocks.count();
  const files = [];
  for (let i = 0; i < n; i++) {
    const block = blocks.nth(i);
    const code = await block.locator('pre').innerText();
    const docs = YAML.parseAllDocuments(code).map((d) => d.toJS());
    assert.equal(docs.length, 1, `block ${i} holds one object`);
    const file = await block.locator('a.download').getAttribute('download');
    assert.equal(file, `${docs[0].kind.toLowerCase()}-${docs[0].metadata.name}.yaml`);
    assert.match(await block.locator('figcaption').innerText(), new RegExp(file.replace('.', '\\.')));
    // The download is the object itself.
    const href = await block.locator('a.download').getAttribute('href');
    assert.equal(decodeURIComponent(href.replace(/^data:application\/yaml;charset=utf-8,/, '')).trimEnd(), code.trimEnd());
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await block.locator('button.copy').click();
    await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== ''));
    assert.equal((await page.evaluate(() => navigator.clipboard.readText())).trimEnd(), code.trimEnd());
    files.push([file, docs[0].kind]);
  }
  assert.ok(n >= 1);
  // Apply order: whatever the TrainJob needs comes before it.
  const kinds = files.map(([, kind]) => kind);
  assert.equal(kinds.indexOf('TrainJob'), kinds.length - 1, kinds.join(', '));
  const apply = await page.locator(`${MAIN_WIDGET} .objects figure.apply pre`).innerText();
  assert.equal(apply.trim(), `kubectl apply ${files.map(([f]) => `-f ${f}`).join(' ')}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every code block in the post has a Copy button that copies what the block shows', async () => {
  const { context, page, errors, go } = await open();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await go();
  // explorer.js loads copy-blocks.js at an idle moment once the widgets near the viewport have
  // mounted; its addCopyButtons appends the status line first and then gives every block its
  // button in the same task, so once the status line is there, a block without a button is the
  // defect and not an early look.
  await page.waitForSelector('.copy-block-status', { state: 'attached' });
  // The blocks of the post itself: not the widgets' fallbacks, which the widgets replace.
  const blocks = page.locator(`article pre:not(${MOUNT} pre)`);
  const n = await blocks.count();
  assert.ok(n >= 15, `${n} blocks`);
  const missing = [];
  for (let i = 0; i < n; i++) {
    const block = blocks.nth(i);
    const button = block.locator('xpath=ancestor::*[.//button[contains(@class, "copy-block")]][1]').locator('button.copy-block');
    if ((await button.count()) === 0) {
      missing.push((await block.innerText()).split('\n')[0]);
      continue;
    }
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await button.first().scrollIntoViewIfNeeded();
    await button.first().click();
    await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== ''));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), (await block.innerText()).replace(/\n$/, ''));
  }
  assert.deepEqual(missing, [], `${missing.length} of ${n} blocks have no Copy`);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Where the main explorer is in the window once the page has loaded (its fallback holds its
 * place until it mounts), and again once it has mounted. */
async function assertExplorerInView(page, height) {
  await page.waitForLoadState('load');
  await frames(page);
  const where = () => page.evaluate((w) => document.querySelector(w).getBoundingClientRect().toJSON(), MAIN_WIDGET);
  const check = ({ top, bottom }, when) =>
    assert.ok(top > -10 && top < height / 2 && bottom > 0, `${when}, the explorer's top is at ${Math.round(top)} px in a ${height} px window`);
  check(await where(), 'once the page has loaded');
  await page.waitForSelector(rendered(MAIN_WIDGET), { timeout: 20000, state: 'attached' });
  await frames(page);
  check(await where(), 'once it has mounted');
}

test('a shared selection link opens the post at the explorer', async () => {
  const { context, page, go } = await open('?persona=platform-engineer&framework=jax&nodes=3', { viewport: { width: 390, height: 844 } });
  await go();
  await assertExplorerInView(page, 844);
  await context.close();
});

test('the post\'s "Migrate a V1 job" link lands on the explorer, in migrate mode', async () => {
  const { context, page, go } = await open('', { viewport: { width: 390, height: 844 } });
  await go();
  const link = page.locator('article a', { hasText: 'Migrate a V1 job' });
  await link.scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(/mode=migrate/), link.click()]);
  await assertExplorerInView(page, 844);
  await page.locator(`${MAIN_WIDGET} #m-input`).waitFor();
  await context.close();
});

test('a shared persona leaves the presets with the persona their prose describes', async () => {
  const { context, page, go } = await open('?persona=data-scientist&framework=jax');
  await go();
  await mountAll(page);
  const personas = await page.evaluate((MOUNT) =>
    [...document.querySelectorAll(`${MOUNT}[data-compact]`)].map((m) => [m.dataset.persona, m.shadowRoot.querySelector('.persona [aria-checked="true"]').dataset.value]),
  MOUNT);
  assert.ok(personas.length >= 3);
  assert.deepEqual(personas.map(([, shown]) => shown), personas.map(([wanted]) => wanted));
  await context.close();
});

// mountAll (helpers.mjs) scrolls as a reader: on a page opened with a selection, every widget's
// first render puts the page back at the main explorer until the reader acts. Here each first
// render comes as late as it can and still be drawn before the next host is seen: Yew's scheduler
// always yields and its zero-delay timer runs when the page next scrolls (late-renders.mjs), in the frame that draws the scroll, before that frame's animation-frame callbacks and
// intersection observations. With Playwright's scrolling alone the last host never mounted (3 of 3).
test('mountAll mounts every widget of a page opened with a selection, each first render late', async () => {
  const { context, page, go } = await open('?mode=migrate');
  await page.addInitScript(lateRenders, 'scroll');
  await go();
  const mounting = mountAll(page);
  // mountAll waits for each widget's render too; the last one waits here for a scroll that
  // mountAll, done scrolling, no longer makes: a reader's wheel turn, once every host has mounted.
  await page.waitForFunction(() => document.querySelectorAll('[data-trainer-v2-explorer-mounted]').length === 4, null, { timeout: 15000 });
  await page.mouse.wheel(0, 1);
  assert.equal(await mounting, 4);
  await context.close();
});

test('at 390 px no part of the post scrolls sideways', async () => {
  const { context, page, go } = await open('', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await go();
  await mountAll(page);
  const wide = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    wider: [...document.querySelectorAll('article > *')]
      .filter((el) => el.getBoundingClientRect().right > innerWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().width)} px`),
  }));
  assert.deepEqual(wide.wider, []);
  assert.ok(wide.page <= 390, `the page is ${wide.page} px wide`);
  await context.close();
});

test('at 390 px long lines start wrapped, every line of the panes in full; unwrapped, the panes say they scroll', async () => {
  const { context, page, go } = await open('?persona=data-scientist&framework=tensorflow', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await go();
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  await page.waitForSelector(rendered(MAIN_WIDGET));
  // The panes' code blocks: how many are wider than their box, and whether each draws its
  // scroll cue (the shadows in its background).
  const blocks = () =>
    page.evaluate((w) =>
      [...document.querySelector(w).shadowRoot.querySelectorAll('.pane pre')].map((pre) => ({
        clipped: pre.scrollWidth > pre.clientWidth + 1,
        cue: getComputedStyle(pre).backgroundImage.includes('radial-gradient'),
      })),
    MAIN_WIDGET);
  // A phone starts wrapped: `trainer=CustomTrainer(func=train, n…` would hide its arguments.
  assert.equal(await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().isChecked(), true);
  assert.deepEqual((await blocks()).filter((b) => b.clipped), [], 'no line clipped while wrapped');
  const toggle = page.locator(`${MAIN_WIDGET} .legend .wrap-toggle`).first();
  await toggle.click();
  assert.equal(await page.locator(`${MAIN_WIDGET} .wrap-toggle input`).first().isChecked(), false);
  await wrapDrawn(page, false);
  const after = await blocks();
  assert.ok(after.some((b) => b.clipped), 'some line is wider than a 390 px pane');
  assert.ok(after.every((b) => b.cue), 'every pane block shows that it scrolls');
  await context.close();
});

test('at 390 px the highlight legend keeps its swatch beside its text, and the reader sees it so', async () => {
  const { context, page, go } = await open('#user-experience', { viewport: { width: 390, height: 844 } });
  await go();
  // The widget mounts when its place comes near the window; on a phone the anchor's heading is
  // screens above it. Scrolled to as a reader does: a preset above whose first render came after
  // Playwright's scroll put the page back at #user-experience, and the explorer never mounted
  // (the gate of 6c7355a, 30 s waiting for its render).
  await scrollAsReader(page, MAIN_WIDGET);
  await page.waitForSelector(rendered(MAIN_WIDGET), { state: 'attached' });
  const legend = page.locator(`${MAIN_WIDGET} .legend`);
  await legend.scrollIntoViewIfNeeded();
  // The swatch and the first line of the sentence it explains share a row: the swatch's middle
  // lies within that line's box.
  const where = await page.evaluate((MAIN) => {
    const root = document.querySelector(MAIN).shadowRoot;
    const swatch = root.querySelector('.legend .swatch').getBoundingClientRect();
    const text = [...root.querySelector('.legend').children].find((c) => !c.classList.contains('swatch') && c.textContent.includes('Highlighted'));
    const range = document.createRange();
    range.selectNodeContents(text);
    const first = range.getClientRects()[0];
    return { swatch: (swatch.top + swatch.bottom) / 2, top: first.top, bottom: first.bottom };
  }, MAIN_WIDGET);
  assert.ok(where.swatch >= where.top && where.swatch <= where.bottom,
    `the swatch (middle at ${Math.round(where.swatch)} px) is not on the text's first line (${Math.round(where.top)}-${Math.round(where.bottom)} px)`);
  await legend.screenshot({ path: 'target/e2e-legend-phone.png' });
  await context.close();
});

// Issue 34: the explorer is screens down the post; the lede and the contents box point to it.
test('the lede\'s "Try the explorer" and the contents box\'s entry land on the explorer', async () => {
  for (const [where, link, viewport] of [
    ['the lede', 'p.lede a', { width: 390, height: 844 }],
    ['the contents box', 'nav.toc a', { width: 1280, height: 900 }],
  ]) {
    const { context, page, go, errors } = await open('', { viewport });
    await go();
    const a = page.locator(link, { hasText: 'Try the explorer' });
    assert.equal(await a.count(), 1, `${where} has one "Try the explorer" link`);
    await a.scrollIntoViewIfNeeded();
    await Promise.all([page.waitForURL(/#explorer$/), a.click()]);
    await assertExplorerInView(page, viewport.height);
    assert.deepEqual(errors, [], where);
    await context.close();
  }
});

test('the lede\'s "migrate your V1 jobs" opens the explorer in migrate mode', async () => {
  const { context, page, go, errors } = await open('', { viewport: { width: 390, height: 844 } });
  await go();
  const a = page.locator('p.lede a', { hasText: 'migrate your V1 jobs' });
  await Promise.all([page.waitForURL(/mode=migrate/), a.click()]);
  await assertExplorerInView(page, 844);
  await page.locator(`${MAIN_WIDGET} #m-input`).waitFor();
  // The contents box names the section too.
  assert.equal(await page.locator('nav.toc a', { hasText: 'Migrate your V1 jobs' }).count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});
