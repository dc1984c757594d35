// The widget never leaves a reader with empty boxes, on dist/ in headless Chromium: after a panic,
// a trap or a module that does not load, every instance shows its static snippets; an instance
// whose element leaves the page (single-page navigation) stops, listeners and timers included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, mountAll, nextFrames } from './helpers.mjs';

const MOUNTS = '[data-trainer-v2-explorer]';
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function open({ init, route } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  if (init) await page.addInitScript(init);
  if (route) await page.route(...route);
  await page.goto(BASE);
  return { page, errors, context };
}

/** Makes the loaded module fail as a bug would: the test hook exported for this purpose only. */
const fail = (page, kind) =>
  page.evaluate(async (kind) => {
    // The loader's own module instance: same URL, so the same, initialised module.
    const m = await import(new URL('pkg/trainer_v2_explorer.js', document.baseURI).href);
    m.__failForTests(kind);
  }, kind);

/**
 * What each mount point shows the reader: its rendered text, box height, and how many of its
 * code blocks are visible, wherever they live (widget or restored fallback).
 */
const shown = (page) =>
  page.evaluate((MOUNTS) => {
    const visible = (el) => el.getClientRects().length > 0 && el.getBoundingClientRect().height > 0;
    return [...document.querySelectorAll(MOUNTS)].map((host) => {
      // The restored fallback's "What Kubernetes runs", opened as a reader would to read it.
      for (const details of host.querySelectorAll(':scope details')) details.open = true;
      const blocks = [...host.querySelectorAll('pre'), ...(host.shadowRoot?.querySelectorAll('pre') ?? [])];
      return {
        failed: host.hasAttribute('data-trainer-v2-explorer-failed'),
        mounted: host.hasAttribute('data-trainer-v2-explorer-mounted'),
        widget: Boolean(host.shadowRoot?.querySelector('.tv2x')),
        height: host.getBoundingClientRect().height,
        text: host.innerText,
        blocks: blocks.length,
        visibleBlocks: blocks.filter(visible).length,
        code: blocks.filter(visible).map((pre) => pre.innerText),
      };
    });
  }, MOUNTS);

/** Every instance shows its static snippets: text, code and a box with height, no widget. */
function assertFallbacks(states) {
  assert.ok(states.length >= 4, `only ${states.length} mount points`);
  states.forEach((s, i) => {
    assert.ok(!s.widget && !s.mounted, `instance ${i} still claims a widget`);
    assert.ok(s.height > 100, `instance ${i} is an empty box (${s.height}px high)`);
    assert.ok(s.visibleBlocks >= 2 && s.visibleBlocks === s.blocks, `instance ${i}: ${s.visibleBlocks}/${s.blocks} code blocks visible`);
    assert.ok(s.code.every((c) => c.trim().split('\n').length >= 2), `instance ${i} has an empty code block`);
    assert.ok(s.code.some((c) => c.includes('apiVersion: ')), `instance ${i} shows no YAML: ${s.code[0]?.slice(0, 80)}`);
    assert.match(s.text, /\bV2\b[\s\S]*\bV1\b/, `instance ${i} shows both sides`);
  });
}

for (const kind of ['panic', 'trap']) {
  test(`after a ${kind}, every instance shows its static snippets again`, async () => {
    const { page, errors, context } = await open();
    await mountAll(page);
    const before = await shown(page);
    assert.ok(before.every((s) => s.widget), 'every instance runs the widget before the failure');
    await fail(page, kind);
    await page.waitForFunction((MOUNTS) => [...document.querySelectorAll(MOUNTS)].every((h) => h.hasAttribute('data-trainer-v2-explorer-failed')), MOUNTS, { timeout: 5000 });
    assertFallbacks(await shown(page));
    // The errors are the failure's own: the trap, the loader's note (and the panic message).
    assert.ok(errors.some((e) => /unreachable/i.test(e)), errors.join('\n'));
    assert.ok(errors.some((e) => e.includes('Trainer V2 Explorer stopped')), errors.join('\n'));
    // A panic reaches the loader through the widget's hook, with its message, before the trap: the
    // loader's note carries it (after a trap alone, the note can only name the RuntimeError).
    if (kind === 'panic') {
      const note = errors.find((e) => e.includes('Trainer V2 Explorer stopped'));
      assert.ok(note?.includes('forced by a test'), `the loader's note lacks the panic message: ${note}`);
    }
    await page.screenshot({ path: `target/e2e-after-${kind}.png`, fullPage: false });
    await context.close();
  });
}

test('an instance that was not yet mounted stays static after a failure', async () => {
  const { page, context } = await open();
  // Only the first instance mounts: the others are far below the viewport.
  await page.locator(MOUNTS).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((MOUNTS) => document.querySelector(MOUNTS).hasAttribute('data-trainer-v2-explorer-mounted'), MOUNTS);
  await fail(page, 'trap');
  await page.waitForFunction((MOUNTS) => document.querySelector(MOUNTS).hasAttribute('data-trainer-v2-explorer-failed'), MOUNTS);
  // Scrolling to the later instances must not mount anything into the dead module.
  for (const host of await page.locator(MOUNTS).all()) await host.scrollIntoViewIfNeeded();
  await nextFrames(page); // the intersection callbacks of the last scroll have run
  assertFallbacks(await shown(page));
  await context.close();
});

test('when the module does not load, every instance keeps its static snippets', async () => {
  const { page, context } = await open({ route: ['**/*.wasm', (r) => r.fulfill({ status: 404, body: 'gone' })] });
  for (const host of await page.locator(MOUNTS).all()) await host.scrollIntoViewIfNeeded();
  await page.waitForFunction((MOUNTS) => [...document.querySelectorAll(MOUNTS)].every((h) => h.hasAttribute('data-trainer-v2-explorer-failed')), MOUNTS, { timeout: 5000 });
  assertFallbacks(await shown(page));
  await context.close();
});

// Counts what the page has registered and not yet released: listeners by type, observing
// MutationObservers, and pending timers by delay. Installed before any script runs.
/** Waits until the instrumented page counts `expected` (the assertion after it says what differs). */
const untilCounts = (page, expected) =>
  page
    .waitForFunction((expected) => JSON.stringify(window.__counts()) === JSON.stringify(expected), expected, { timeout: 5000 })
    .catch(() => {});

function instrument() {
  const live = (window.__live = { listeners: new Map(), observers: new Set(), timers: new Map() });
  const key = (target, type) => `${target instanceof MediaQueryList ? 'media' : target === window ? 'window' : 'other'}:${type}`;
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    const k = key(this, type);
    if (!live.listeners.has(k)) live.listeners.set(k, new Set());
    live.listeners.get(k).add(fn);
    return add.call(this, type, fn, opts);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, opts) {
    live.listeners.get(key(this, type))?.delete(fn);
    return remove.call(this, type, fn, opts);
  };
  const observe = MutationObserver.prototype.observe;
  const disconnect = MutationObserver.prototype.disconnect;
  MutationObserver.prototype.observe = function (...args) {
    // Playwright's injected script observes the page too (once a locator is used); not ours.
    // Nor is the loader's watcher of the whole document (www/element.js watchMountPoints): it
    // stays for the page's life, so the mount points of a docs site's next page mount.
    if (!new Error().stack.includes('InjectedScript') && args[0] !== document) live.observers.add(this);
    return observe.apply(this, args);
  };
  MutationObserver.prototype.disconnect = function () {
    live.observers.delete(this);
    return disconnect.call(this);
  };
  const setTimer = window.setTimeout;
  const clearTimer = window.clearTimeout;
  window.setTimeout = function (fn, delay, ...args) {
    const id = setTimer((...a) => {
      live.timers.delete(id);
      fn(...a);
    }, delay, ...args);
    live.timers.set(id, delay);
    return id;
  };
  window.clearTimeout = function (id) {
    live.timers.delete(id);
    return clearTimer(id);
  };
  window.__counts = () => ({
    sync: live.listeners.get('window:trainer-v2-explorer:change')?.size ?? 0,
    media: live.listeners.get('media:change')?.size ?? 0,
    observers: live.observers.size,
    copyTimers: [...live.timers.values()].filter((d) => d === 2000).length,
  });
}

test('removing the mount points stops their instances: no listener, observer or timer is left', async () => {
  const { page, errors, context } = await open({ init: instrument });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const n = await mountAll(page);
  // Each instance registers them in its first effects, which run at the scheduler's next turn
  // after its render (later when the scheduler yields): read once they are there, or after 5 s.
  await page.waitForFunction((n) => window.__counts().sync === n && window.__counts().media === n, n, { timeout: 5000 }).catch(() => {});
  const running = await page.evaluate(() => window.__counts());
  // Each instance listens and observes the theme; the count sees them, so it can see them stay.
  assert.deepEqual({ ...running, observers: undefined }, { sync: n, media: n, observers: undefined, copyTimers: 0 });
  assert.ok(running.observers >= n, `${running.observers} observers for ${n} instances`);

  // One instance leaves: only its registrations go; the others keep working.
  await page.evaluate((MOUNTS) => {
    window.__removed = [document.querySelector(MOUNTS)];
    window.__removed[0].remove();
  }, MOUNTS);
  const left = { sync: n - 1, media: n - 1, observers: running.observers - 1, copyTimers: 0 };
  await untilCounts(page, left);
  assert.deepEqual(await page.evaluate(() => window.__counts()), left);
  await page.locator(MOUNTS).first().locator('.persona [data-value="platform-engineer"]').click();
  await page.waitForFunction(
    // The presets share only the parameters (data-sync="params"), so they keep their persona.
    (MOUNTS) => [...document.querySelectorAll(`${MOUNTS}:not([data-compact])`)].every((h) => h.shadowRoot.querySelector('.persona [aria-checked="true"]').dataset.value === 'platform-engineer'),
    MOUNTS,
  );
  // A copy leaves a 2-second timer that resets the button's label; the page goes before it fires.
  await page.locator(MOUNTS).first().locator('.v2 .copy').first().click();
  await page.waitForFunction(() => window.__counts().copyTimers === 1);

  // The docs site navigates: the whole content, with every remaining mount point, is replaced.
  await page.evaluate((MOUNTS) => {
    window.__removed.push(...document.querySelectorAll(MOUNTS));
    document.body.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Next page' }));
  }, MOUNTS);
  await untilCounts(page, { sync: 0, media: 0, observers: 0, copyTimers: 0 });
  assert.deepEqual(await page.evaluate(() => window.__counts()), { sync: 0, media: 0, observers: 0, copyTimers: 0 });
  const apps = await page.evaluate(() => window.__removed.map((h) => Boolean(h.shadowRoot.querySelector('.tv2x'))));
  assert.deepEqual(apps, new Array(n).fill(false), 'every Yew app is destroyed');
  // The next page's mount point mounts, and the instance it starts counts as one.
  await page.evaluate(() => {
    const next = Object.assign(document.createElement('div'), { innerHTML: '<pre>fallback</pre>' });
    next.setAttribute('data-trainer-v2-explorer', '');
    document.body.append(next);
  });
  await page.waitForSelector('[data-trainer-v2-explorer-mounted]');
  // Its inbox listens from the mount call on (src/ui/inbox.rs), the theme from its first effect.
  await page.waitForFunction(() => window.__counts().sync === 1 && window.__counts().media === 1);
  const next = await page.evaluate(() => window.__counts());
  assert.deepEqual({ ...next, observers: next.observers > 0 }, { sync: 1, media: 1, observers: true, copyTimers: 0 });
  await page.evaluate(() => document.querySelector('[data-trainer-v2-explorer]').remove());
  await untilCounts(page, { sync: 0, media: 0, observers: 0, copyTimers: 0 });

  // Nothing the page does now reaches a dead instance.
  const other = await context.newPage();
  await other.goto(BASE);
  // Each of these reaches the page as an event; ours are the last listeners, so once they have
  // heard every one, a dead instance would have too.
  await page.evaluate(() => {
    const heard = (target, type) => new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));
    window.__heard = Promise.all([heard(window, 'storage'), heard(window, 'popstate'), heard(matchMedia('(prefers-color-scheme: dark)'), 'change')]);
  });
  await other.evaluate(() => localStorage.setItem('trainer-v2-explorer', 'persona=data-scientist&framework=jax'));
  await page.evaluate(() => {
    history.pushState(null, '', '?persona=data-scientist&framework=mlx');
    history.back();
    window.dispatchEvent(new CustomEvent('trainer-v2-explorer:change', { detail: '99\npersona=data-scientist' }));
    document.documentElement.setAttribute('data-theme', 'dark');
  });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => window.__heard);
  await nextFrames(page);
  // No copy timer is left to fire into a dead instance.
  assert.equal((await page.evaluate(() => window.__counts())).copyTimers, 0);
  assert.deepEqual(errors, []);
  await context.close();
});
