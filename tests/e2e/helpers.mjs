// Shared by the end-to-end tests: the browser, and waiting for every widget to mount.
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { lateRenders, lateRendersFromEnv } from './late-renders.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');

export const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';

/** Resolves once the page has drawn two more frames: what a change asked for is on screen, and
 * what the browser reports after a frame (layout shifts, intersection callbacks) is reported. */
export const nextFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** A package installed next to playwright-core in .tools/node (scripts/install-tools.sh). */
export function nodeModule(name) {
  const core = process.env.PLAYWRIGHT_CORE;
  return require(core ? path.join(path.dirname(core), name) : name);
}

/** The browser contexts opened and not closed yet, by any browser `launch` gave. */
const openContexts = new Set();

// Every context a test opened is closed after it, also when an assertion stopped the test before
// its own close: a failed test's page stayed open, widget and timers running, into the next test
// (which then failed once, and passed alone). Registered here, so every test file has it.
afterEach(async () => {
  for (const context of openContexts) await context.close();
});

/** E2E_LATE_RENDERS (late-renders.mjs): every page of every context renders late. */
const LATE_RENDERS = lateRendersFromEnv();

/** Headless Chromium, whose contexts are closed after each test (above), and whose pages render
 * late when E2E_LATE_RENDERS asks for it. */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    if (LATE_RENDERS !== null) await context.addInitScript(lateRenders, LATE_RENDERS);
    openContexts.add(context);
    context.on('close', () => openContexts.delete(context));
    return context;
  };
  return browser;
}

/** Set on a host by the wasm once its mount call has returned (src/ui/mount.rs). */
const MOUNTED_MARK = '[data-trainer-v2-explorer-mounted]';
/** The widget's root element, there once Yew has rendered it (src/ui/app.rs). */
const RENDERED_ROOT = '.tv2x';

/** Scrolls each mount point into view (the loader is lazy) and waits for its widget to render
 * (see `rendered`), each for at most `timeout` ms; `timeout: 0` waits on the render alone, for a
 * test whose own timeout bounds it (a loaded machine can take any time to download and compile
 * the widget).
 *
 * It scrolls as a reader does, a wheel turn first (see scrollAsReader): on a page opened with a
 * selection (`?mode=migrate`), each widget's first render puts the page back at the main explorer
 * until the reader acts. A widget whose first render came after the helper had scrolled on (Yew's
 * scheduler yielding on a loaded machine) scrolled the page back in the next frame, before the
 * loader's IntersectionObserver saw the next host, which then never mounted (the CI run of
 * e6f6a86: the strict-CSP test waited out its 300 s, the shared-persona test its 15 s). */
export async function mountAll(page, { timeout = 15000 } = {}) {
  const mounts = page.locator('[data-trainer-v2-explorer]');
  const n = await mounts.count();
  await page.mouse.wheel(0, 1);
  for (let i = 0; i < n; i++) {
    await mounts.nth(i).scrollIntoViewIfNeeded({ timeout });
    await mounts.nth(i).and(page.locator(MOUNTED_MARK)).waitFor({ state: 'attached', timeout });
  }
  // Then each render, which on a loaded machine can come after the next host's scroll.
  for (let i = 0; i < n; i++) await renderedAt(page, '[data-trainer-v2-explorer]', i, timeout);
  return n;
}

/** Waits until the widget in the `i`th host matching `hosts` has rendered (see `rendered`). */
const renderedAt = (page, hosts, i, timeout) =>
  page.locator(hosts).nth(i).and(page.locator(MOUNTED_MARK)).locator(RENDERED_ROOT).waitFor({ state: 'attached', timeout });

/** A selector (Playwright's CSS reaches into open shadow roots) that matches once the widget in
 * `host` has rendered. The wasm marks a host mounted when its mount call returns; Yew renders the
 * widget in a microtask after that, or, when its scheduler has yielded (after 16 ms of work, as on
 * a loaded machine), only at its next turn. A reader sees the widget only then, so a test that
 * reads or acts on it waits for this, not for the mark alone. */
export const rendered = (host) => `${host}${MOUNTED_MARK} ${RENDERED_ROOT}`;

/** Waits until the widget at `host` has drawn "Wrap long lines" as `on` (its root's class, which
 * the panes' CSS follows): a click on the toggle checks the box at once, but the widget draws it
 * at its next render, later than the next frames when Yew's scheduler has yielded. */
export const wrapDrawn = (page, on, host = MAIN_WIDGET) =>
  page.waitForFunction(([host, on]) => document.querySelector(host).shadowRoot.querySelector('.tv2x').classList.contains('wrap') === on, [host, on]);

/** Waits until the main explorer's migrate mode shows a converted TrainJob. */
export function waitForConvertedTrainJob(page) {
  return page.waitForFunction(
    () =>
      document
        .querySelector('[data-trainer-v2-explorer]:not([data-compact])')
        ?.shadowRoot?.querySelector('.migrate-result')
        ?.textContent.includes('kind: TrainJob'),
    null,
    { timeout: 15000 },
  );
}

/** The main explorer (not a compact preset of the post). */
export const MAIN_WIDGET = '[data-trainer-v2-explorer]:not([data-compact])';

/** Scrolls `selector` into view as a reader does: a wheel turn first. Until the reader acts,
 * every widget that mounts puts the page back at its #fragment (www/explorer.js, readerActed),
 * and Playwright's own scrolling is no reader's act: a widget above that mounted in the frame
 * after it scrolled the page back before the target ever intersected, so it never mounted
 * (CI, the 320 px phone test: 15 s waiting for the mount). */
export async function scrollAsReader(page, selector) {
  await page.mouse.wheel(0, 1);
  await page.locator(selector).scrollIntoViewIfNeeded();
}

/** Opens the post at the main explorer with `query` (on the server at `base`) and opens its
 * lazily filled disclosure `paneClass` (k8s-pane, upgrade-pane); collects the page's errors. */
export async function openPane(context, query, paneClass, base = BASE) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(`?${query}#user-experience`, base).href);
  // On a phone the fragment lands above the widget, which mounts only near the viewport.
  await scrollAsReader(page, MAIN_WIDGET);
  const summary = page.locator(`${MAIN_WIDGET} .${paneClass} summary`);
  await summary.waitFor({ timeout: 15000 });
  await summary.scrollIntoViewIfNeeded();
  await summary.click();
  return { page, errors };
}

/** Two frames: what the page does after a mount (www/explorer.js) has run by then. */
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Where focus is: which mount point (-1 for none), whether inside its shadow root (the widget)
 * or its light DOM (the static fallback), and whether the reader can see the focused element. */
const focusState = (page, MOUNT) =>
  page.evaluate((MOUNT) => {
    const mounts = [...document.querySelectorAll(MOUNT)];
    const active = document.activeElement;
    const index = mounts.findIndex((m) => m === active || m.contains(active));
    if (index < 0) return { index, tag: active?.tagName };
    const inner = mounts[index].shadowRoot?.activeElement;
    const el = active === mounts[index] && inner ? inner : active;
    const style = getComputedStyle(el);
    return {
      index,
      inWidget: Boolean(inner) && active === mounts[index],
      mounted: mounts[index].hasAttribute('data-trainer-v2-explorer-mounted'),
      visible: el.checkVisibility() && el.getClientRects().length > 0,
      ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      what: `${el.tagName.toLowerCase()}${el.getAttribute('aria-label') ? ` "${el.getAttribute('aria-label')}"` : ''}`,
    };
  }, MOUNT);

/** Presses Tab from the top of the page until focus has been inside every mount point's widget;
 * returns the widgets reached and every focus stop on an element the reader cannot see. Where
 * focus lands on a fallback before its widget mounted, it waits for the mount and looks again. */
export async function tabThroughWidgets(page, MOUNT, { onFallback = () => {}, limit = 900 } = {}) {
  const total = await page.locator(MOUNT).count();
  const reached = new Set();
  const lost = [];
  for (let i = 0; i < limit && reached.size < total; i++) {
    await page.keyboard.press('Tab');
    let f = await focusState(page, MOUNT);
    if (f.index < 0) {
      if (f.tag === 'BODY' && i > 0) break; // past the end of the page
      continue;
    }
    if (!f.inWidget) {
      // On the static fallback: the reader is faster than the download. The widget mounts now,
      // and focus moves into it in the frame after its first render.
      onFallback();
      await renderedAt(page, MOUNT, f.index, 20000);
      await frames(page);
      f = await focusState(page, MOUNT);
      if (f.index < 0) {
        lost.push(`focus left the page when widget ${reached.size} mounted (${f.tag})`);
        continue;
      }
    }
    if (f.inWidget) reached.add(f.index);
    if (!f.visible || !f.ring) lost.push(`widget ${f.index}: focus on ${f.what}, visible ${f.visible}, ring ${f.ring}`);
  }
  return { total, reached: [...reached].sort((a, b) => a - b), lost };
}

/** What a screenshot of a widget is looked at for, asserted where a reader sees it (phone width,
 * dark colours): axe finds no violation in the widget `host` (a selector) as it stands, its shadow
 * root with the open pane included (colour contrast in this colour scheme too), and the page does
 * not scroll sideways (nothing is wider than the window; code blocks scroll inside themselves). */
export async function assertShownWell(page, host) {
  await page.addScriptTag({ path: require.resolve(process.env.AXE_CORE ?? 'axe-core/axe.min.js') });
  const results = await page.evaluate(async (host) => window.axe.run({ include: [[host]] }, { resultTypes: ['violations'] }), host);
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length}× e.g. ${v.nodes[0]?.target?.join(' ')} ${v.nodes[0]?.failureSummary ?? ''}`);
  assert.deepEqual(summary, [], 'axe');
  // Against the window's width as set, not innerWidth: a phone's browser widens its layout
  // viewport to fit wider content (and zooms out), so innerWidth grows with the defect.
  const { width } = page.viewportSize();
  const scrollWidth = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(scrollWidth <= width, `the page scrolls sideways: ${scrollWidth} px wide in a ${width} px window`);
}

/** Opens the post at the main explorer with `query` in a new page of `context`, scrolled to it as
 * a reader would and mounted; collects the page's errors. */
export async function openWidget(context, query) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(`?${query}#user-experience`, BASE).href);
  await scrollAsReader(page, MAIN_WIDGET);
  await page.waitForSelector(rendered(MAIN_WIDGET), { state: 'attached', timeout: 15000 });
  return { page, errors };
}

/** Opens the post in migrate mode in a new page of `context`, scrolled to the main explorer as a
 * reader would, waits for the built-in sample's conversion, then pastes `job` (unless null);
 * collects the page's errors. The caller waits for what its test reads. */
export async function openMigrate(context, job = null) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  // The widget mounts when it comes into view; on a phone the anchor alone may leave it below.
  await scrollAsReader(page, MAIN_WIDGET);
  await waitForConvertedTrainJob(page);
  if (job) await page.locator(`${MAIN_WIDGET} #m-input`).fill(job);
  return { page, errors };
}
