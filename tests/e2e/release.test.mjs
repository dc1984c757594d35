// The reader's Trainer release, in the built post (make dist) in headless Chromium: the radio
// group, the page address, the other instances, a reload, data-release on a mount point, a bad
// value in the address. Screenshots of the controls go to target/e2e-release-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, assertShownWell, launch, mountAll, nextFrames, rendered } from './helpers.mjs';

const MAIN = '[data-trainer-v2-explorer]:not([data-compact])';
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function open(path, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(path, BASE).href);
  await mountAll(page);
  return { context, page, errors };
}

/** A second full explorer, mounted by the page's own module (one module, one sync channel). */
async function mountAnother(page, attrs = {}) {
  await page.evaluate(async (attrs) => {
    const el = document.createElement('div');
    el.setAttribute('data-trainer-v2-explorer', '');
    el.id = 'another';
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    document.querySelector('main').append(el);
    const m = await import(new URL('pkg/trainer_v2_explorer.js', document.baseURI).href);
    m.mount(el);
  }, attrs);
  return '#another';
}

/** The release group of the explorer at `host`, as a reader's screen reader meets it. */
const group = (page, host = MAIN) =>
  page.evaluate((host) => {
    const root = document.querySelector(host).shadowRoot;
    const g = root.querySelector('[role="radiogroup"].release');
    if (!g) return null;
    const radios = [...g.querySelectorAll('[role="radio"]')];
    return {
      label: g.getAttribute('aria-label'),
      lines: radios.map((r) => r.dataset.value),
      checked: radios.filter((r) => r.getAttribute('aria-checked') === 'true').map((r) => r.dataset.value),
      tabbable: radios.filter((r) => r.tabIndex === 0).map((r) => r.dataset.value),
      description: root.getElementById(g.getAttribute('aria-describedby'))?.textContent.trim(),
    };
  }, host);

const click = (page, host, line) =>
  page.evaluate(
    ([host, line]) => document.querySelector(host).shadowRoot.querySelector(`.release [data-value="${line}"]`).click(),
    [host, line],
  );

const releaseInUrl = (page) => new URL(page.url()).searchParams.get('release');

test('the group is labelled, lists every release line oldest first, and starts at the newest', async () => {
  const { context, page, errors } = await open('#user-experience');
  const g = await group(page);
  assert.equal(g.label, 'Trainer release');
  assert.ok(g.lines.length >= 4 && g.lines.every((l) => /^v2\.\d+$/.test(l)), g.lines.join());
  const minors = g.lines.map((l) => Number(l.split('.')[1]));
  assert.deepEqual(minors, [...minors].sort((a, b) => a - b), 'oldest first');
  const newest = g.lines.at(-1);
  assert.deepEqual(g.checked, [newest]);
  assert.deepEqual(g.tabbable, [newest], 'roving tabindex: one stop');
  // The description names the tag served and the SDK it pairs with.
  assert.match(g.description, new RegExp(`^${newest.replace('.', '\\.')}\\.\\d+, SDK kubeflow \\d+\\.\\d+\\.\\d+$`));
  // Presets stay compact: only the main explorer has the control.
  const presets = await page.evaluate(
    () => [...document.querySelectorAll('[data-trainer-v2-explorer][data-compact]')].filter((el) => el.shadowRoot.querySelector('.release')).length,
  );
  assert.equal(presets, 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('choosing v2.1 writes release=v2.1, another instance follows, a reload keeps it, the newest leaves the address', async () => {
  const { context, page, errors } = await open('#user-experience');
  const another = await mountAnother(page);
  await page.waitForSelector(rendered(another), { state: 'attached' });
  const newest = (await group(page)).lines.at(-1);
  assert.equal(releaseInUrl(page), null, 'the newest is left out of the address');

  await click(page, MAIN, 'v2.1');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('release') === 'v2.1');
  assert.deepEqual((await group(page)).checked, ['v2.1']);
  assert.match((await group(page)).description, /^v2\.1\.\d+, SDK kubeflow /, 'the tag served and its SDK');
  assert.deepEqual(await checkedOnceShown(page, 'v2.1', another), ['v2.1'], 'the other instance follows');
  assert.equal(new URL(page.url()).hash, '#user-experience', 'the fragment stays');

  await page.reload();
  await mountAll(page);
  assert.deepEqual((await group(page)).checked, ['v2.1'], 'a reload keeps it (the address)');
  // A new visit without the parameter reads it back from storage.
  await page.goto(new URL('#user-experience', BASE).href);
  await mountAll(page);
  assert.deepEqual((await group(page)).checked, ['v2.1'], 'storage keeps it');

  // Back to the newest: the address drops the key and the other instance follows back.
  await page.goto(new URL('?release=v2.1#user-experience', BASE).href);
  await mountAll(page);
  await mountAnother(page);
  await page.waitForSelector(rendered(another), { state: 'attached' });
  await click(page, another, newest);
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('release'));
  assert.deepEqual(await checkedOnceShown(page, newest), [newest], 'a release set back to the newest reaches the others');
  assert.deepEqual(errors, []);
  await context.close();
});

/** The release the widget at `host` shows as checked once it is `want`, or what it shows when the
 * wait gives up: a key's choice, or one another instance shared, lands on the widget's next
 * scheduled render, not inside the key event or the URL's write. */
async function checkedOnceShown(page, want, host = MAIN) {
  const shows = ([host, want]) =>
    document.querySelector(host).shadowRoot.querySelector('.release [aria-checked="true"]')?.dataset.value === want;
  await page.waitForFunction(shows, [host, want], { timeout: 5000 }).catch(() => {});
  return (await group(page, host)).checked;
}

test('arrow keys choose a release, in both views and for both personas', async () => {
  const { context, page } = await open('#user-experience');
  const g = await group(page);
  await page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.release [tabindex="0"]').focus(), MAIN);
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await checkedOnceShown(page, g.lines.at(-2)), [g.lines.at(-2)]);
  await page.keyboard.press('Home');
  assert.deepEqual(await checkedOnceShown(page, g.lines[0]), [g.lines[0]]);
  const focused = await page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.activeElement.dataset.value, MAIN);
  assert.equal(focused, g.lines[0], 'focus moves with the choice');
  await page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.persona [data-value="platform-engineer"]').click(), MAIN);
  assert.deepEqual((await group(page)).checked, [g.lines[0]], 'the platform engineer keeps it');
  await page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.mode [data-value="migrate"]').click(), MAIN);
  await page.waitForFunction((MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.migrate'), MAIN);
  assert.deepEqual((await group(page)).checked, [g.lines[0]], 'migrate mode shows it too');
  await context.close();
});

test('data-release on a mount point starts there; a bad release in the address is ignored', async () => {
  const { context, page } = await open('');
  const another = await mountAnother(page, { 'data-release': 'v2.0' });
  await page.waitForSelector(rendered(another), { state: 'attached' });
  assert.deepEqual((await group(page, another)).checked, ['v2.0']);
  const newest = (await group(page)).lines.at(-1);
  assert.deepEqual((await group(page)).checked, [newest], 'other mount points keep their own default');
  await context.close();

  const bad = await open('?release=v9&persona=platform-engineer#user-experience');
  assert.deepEqual((await group(bad.page)).checked, [newest], 'v9 is not a release: the newest is shown');
  const persona = await bad.page.evaluate(
    (MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.persona [aria-checked="true"]').dataset.value,
    MAIN,
  );
  assert.equal(persona, 'platform-engineer', 'the valid keys still apply');
  assert.deepEqual(bad.errors, []);
  await bad.context.close();
});

test('desktop, a 375 px phone, dark (screenshots): the release row fits, axe passes, no sideways scroll', async () => {
  const shots = [
    ['desktop', { viewport: { width: 1280, height: 900 } }],
    ['phone', { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ];
  for (const [name, options] of shots) {
    const { context, page, errors } = await open('?release=v2.1#user-experience', options);
    // The explorer's top at the top of the window: its controls and the start of the panes.
    await page.locator(MAIN).evaluate((el) => el.scrollIntoView());
    await nextFrames(page);
    await page.screenshot({ path: `target/e2e-release-${name}.png` });
    if (name === 'phone') {
      // Nothing in the control row overflows the phone's width.
      const overflow = await page.evaluate((MAIN) => {
        const root = document.querySelector(MAIN).shadowRoot;
        const right = root.querySelector('.tv2x').getBoundingClientRect().right;
        return [...root.querySelectorAll('.release [role="radio"], #release-pairs')].filter((el) => el.getBoundingClientRect().right > right + 0.5).length;
      }, MAIN);
      assert.equal(overflow, 0);
    }
    await assertShownWell(page, MAIN);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
