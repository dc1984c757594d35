// What reaches a widget between its mount and its first effect: an option the host page sets, a
// choice another instance shares. The wasm marks a host mounted as its mount call returns, and the
// loader passes option changes on from then; Yew runs the widget's effects after its first render,
// and on a loaded machine (its scheduler yielding, late-renders.mjs) a task or more later. Each
// test here puts its change in that window on purpose, then asserts what the reader sees.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, MAIN_WIDGET, launch, rendered } from './helpers.mjs';
import { lateRenders } from './late-renders.mjs';

let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function open(heldUntil, initScript = null) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(lateRenders, heldUntil);
  if (initScript) await page.addInitScript(initScript);
  await page.goto(new URL('#user-experience', BASE).href);
  return { context, page, errors };
}

/** The value checked in the radio group `group` of the widget at `host`. */
const checked = (page, host, group) =>
  page.evaluate(([host, group]) => document.querySelector(host).shadowRoot.querySelector(`.${group} [aria-checked="true"]`)?.dataset.value, [host, group]);

/** Waits until the widget at `host` hears its host's options, with no clock: each poll sets the
 * probe option again (an option set before the widget listened is exactly what may be lost) and
 * scrolls by a pixel, which runs zero-delay timers the page holds until a scroll (late-renders.mjs
 * 'scroll'). Once the probe's value shows, every effect of the first render has run. */
const listening = (page, host, [name, value]) =>
  page.waitForFunction(
    ([host, name, value]) => {
      const el = document.querySelector(host);
      el.setAttribute(`data-${name}`, value);
      scrollBy(0, scrollY > 0 ? -1 : 1);
      return el.shadowRoot?.querySelector(`.${name} [aria-checked="true"]`)?.dataset.value === value;
    },
    [host, name, value],
    { polling: 'raf' },
  );

// Fails on a loader that passes option changes to a widget not yet listening (main's d1d72ef:
// the change is dispatched on the host with no listener, and the widget keeps the attribute's
// value it read at mount).
test('an option the host sets just after the mount mark shows', async () => {
  const { context, page, errors } = await open('scroll-or-frames', () => {
    // In the mutation's microtask: after the mount call returned, before any timer, so before
    // the first effect of a render made late.
    new MutationObserver((records, observer) => {
      const host = records.map((r) => r.target).find((t) => t.matches('[data-trainer-v2-explorer]:not([data-compact])'));
      if (!host) return;
      observer.disconnect();
      host.setAttribute('data-framework', 'xgboost');
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-trainer-v2-explorer-mounted'] });
  });
  await page.mouse.wheel(0, 1);
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  await page.locator(rendered(MAIN_WIDGET)).waitFor({ state: 'attached', timeout: 15000 });
  await listening(page, MAIN_WIDGET, ['persona', 'platform-engineer']);
  assert.equal(await checked(page, MAIN_WIDGET, 'framework'), 'xgboost');
  assert.deepEqual(errors, []);
  await context.close();
});

/** An init script: the page refuses to store the selection (storage and history writes do nothing),
 * so a shared choice reaches a widget mounted after its broadcast only as the page's pending choice
 * (ui::unpersisted), however late the widget mounts: without it, the widget starts with its
 * defaults in either order the tests below meet. */
function refuseWrites() {
  Storage.prototype.setItem = () => {};
  History.prototype.replaceState = () => {};
}

// Another instance's choice, broadcast after its effect (a zero-delay timer), reaches a widget
// mounted around then, in either order: mounted before the broadcast and not yet listening, the
// widget holds it (ui::inbox); mounted after it, it starts with it (mount.rs `initial_selection`
// reads the page's pending choice). The second widget mounts in the task that runs the first one's
// effect; which comes first depends on the loader's mount and the machine (the test says which it
// met). The test waits for the broadcast before it asserts (the gate of the twentieth session's
// merge asserted before it, once).
test('a choice another instance shares just after a widget mounts shows there', async (t) => {
  const { context, page, errors } = await open('scroll', refuseWrites);
  await page.mouse.wheel(0, 1);
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  await page.locator(rendered(MAIN_WIDGET)).waitFor({ state: 'attached', timeout: 15000 });
  await listening(page, MAIN_WIDGET, ['framework', 'jax']);
  // Heard from here on: the main explorer's broadcast of the reader's choice (browser::SYNC_EVENT).
  await page.evaluate(() => {
    window.sharedChoice = false;
    addEventListener('trainer-v2-explorer:change', (event) => {
      if (!String(event.detail).includes('persona=platform-engineer') || window.sharedChoice) return;
      window.sharedChoice = true;
      // Mount starts the inbox and sets this mark in one task: without the mark, nothing heard it.
      window.sharedBeforeMount = !document.querySelector('#another[data-trainer-v2-explorer-mounted]');
    });
  });
  // The reader's choice in the main explorer. Its render may wait for a scroll; its effect,
  // after the render, waits for the next one.
  await page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.persona [data-value="platform-engineer"]').click(), MAIN_WIDGET);
  await page.waitForFunction(
    (MAIN) => {
      const drawn = document.querySelector(MAIN).shadowRoot.querySelector('.persona [aria-checked="true"]').dataset.value === 'platform-engineer';
      if (!drawn) scrollBy(0, scrollY > 0 ? -1 : 1);
      return drawn;
    },
    MAIN_WIDGET,
    { polling: 'raf' },
  );
  await page.evaluate((MAIN) => {
    const main = document.querySelector(MAIN);
    return new Promise((done) => {
      // After late-renders.mjs's own scroll listener (added first, capturing): the main
      // explorer's effect has run and queued its broadcast.
      addEventListener(
        'scroll',
        () => {
          const another = document.createElement('div');
          another.id = 'another';
          another.setAttribute('data-trainer-v2-explorer', '');
          main.after(another);
          done();
        },
        { once: true },
      );
      scrollBy(0, 1);
    });
  }, MAIN_WIDGET);
  await page.locator('#another[data-trainer-v2-explorer-mounted]').waitFor({ state: 'attached', timeout: 15000 });
  await listening(page, '#another', ['framework', 'jax']);
  // Once the choice is broadcast (its zero-delay timer may wait for a scroll, or 500 ms under
  // E2E_LATE_RENDERS) and drawn (a render may wait for a scroll too): lost, it never shows.
  await page.waitForFunction(() => {
    scrollBy(0, scrollY > 0 ? -1 : 1);
    return window.sharedChoice;
  }, null, { polling: 'raf' });
  const order = (await page.evaluate(() => window.sharedBeforeMount)) ? 'before' : 'after';
  t.diagnostic(`the broadcast came ${order} the second widget mounted`);
  await page
    .waitForFunction(() => {
      scrollBy(0, scrollY > 0 ? -1 : 1);
      return document.querySelector('#another').shadowRoot.querySelector('.persona [aria-checked="true"]')?.dataset.value === 'platform-engineer';
    }, null, { polling: 'raf', timeout: 15000 })
    .catch(() => {});
  assert.equal(await checked(page, '#another', 'persona'), 'platform-engineer');
  assert.deepEqual(errors, []);
  await context.close();
});

// The order the test above may meet, every time: the second widget's host is added as the
// broadcast is heard, so it mounts after it, and the page never stores the choice, so nothing
// but the page's pending choice tells the widget (red without it: the default persona).
test('a widget mounted after another shared a choice the page has not stored starts with it', async () => {
  const { context, page, errors } = await open('scroll-or-frames', refuseWrites);
  await page.mouse.wheel(0, 1);
  await page.locator(MAIN_WIDGET).scrollIntoViewIfNeeded();
  await page.locator(rendered(MAIN_WIDGET)).waitFor({ state: 'attached', timeout: 15000 });
  await listening(page, MAIN_WIDGET, ['framework', 'jax']);
  await page.evaluate((MAIN) => {
    const main = document.querySelector(MAIN);
    addEventListener('trainer-v2-explorer:change', (event) => {
      if (!String(event.detail).includes('persona=platform-engineer') || document.querySelector('#another')) return;
      const another = document.createElement('div');
      another.id = 'another';
      another.setAttribute('data-trainer-v2-explorer', '');
      main.after(another);
    });
    main.shadowRoot.querySelector('.persona [data-value="platform-engineer"]').click();
  }, MAIN_WIDGET);
  await page.locator('#another[data-trainer-v2-explorer-mounted]').waitFor({ state: 'attached', timeout: 15000 });
  await listening(page, '#another', ['framework', 'jax']);
  assert.equal(await checked(page, '#another', 'persona'), 'platform-engineer');
  assert.deepEqual(errors, []);
  await context.close();
});
