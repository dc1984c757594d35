// The toggle-to-DOM loop, shared by bench.mjs (one build) and toggle-ab.mjs (builds side by side).
// On a page whose main widget is mounted: click a framework radio, time until the widget's DOM
// has changed (a MutationObserver's first record: with Yew's microtask scheduler, the whole
// render), 220 times; the first 20 are warm-up.
//
// Patterns. Back and forth between two frameworks (`pair`): the widget keeps its last 4
// selections, so this is what a reader comparing two gets. Round a list of frameworks (`round`,
// default all of them), so that no selection is among the last 4 kept, twice: pausing as a reader
// does between clicks ('round-reader'), which gives the widget the idle time to prepare the views
// one click away (src/ui/prepare.rs), and pausing 5 ms ('round-unprepared'): preparation waits
// 20 ms after a toggle (PAUSE_MS) and the next click cancels it, so nothing is prepared and every
// toggle builds, highlights and parses afresh. (A round with no pause at all, in one task,
// measured lower, 3.6 ms on main at 0e22ca7: no frame is drawn between its clicks, which makes the
// DOM work cheaper than a reader's.)
import { createRequire } from 'node:module';

export const MAIN_WIDGET = '[data-trainer-v2-explorer]:not([data-compact])';
export const READER_PAUSE_MS = 250;

/** 200 toggle times in ms, on `page` (already at the post with the main widget mounted). */
export const toggleTimes = (page, pattern, { pair = ['jax', 'pytorch'], round = null, readerPause = READER_PAUSE_MS } = {}) =>
  page.evaluate(async ([MAIN, pattern, pair, round, readerPause]) => {
    const root = document.querySelector(MAIN).shadowRoot;
    const all = round ?? [...root.querySelectorAll('.framework [data-value]')].map((el) => el.dataset.value);
    // Start after the framework already chosen: clicking it would change nothing.
    const current = root.querySelector('.framework [aria-checked="true"]')?.dataset.value;
    const from = all.indexOf(current) + 1;
    const pairFrom = pair[0] === current ? [pair[1], pair[0]] : pair;
    const order = pattern === 'back-and-forth' ? pairFrom : [...all.slice(from), ...all.slice(0, from)];
    if (pattern !== 'back-and-forth' && all.length <= 4) throw new Error(`only ${all.length} frameworks: the round would hit the cache`);
    const times = [];
    for (let i = 0; i < 220; i++) {
      const target = root.querySelector(`.framework [data-value="${order[i % order.length]}"]`);
      const changed = new Promise((resolve) => {
        const mo = new MutationObserver(() => {
          mo.disconnect();
          resolve(performance.now());
        });
        mo.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
        setTimeout(() => resolve(NaN), 2000);
      });
      const t0 = performance.now();
      target.click();
      const t = (await changed) - t0;
      if (Number.isNaN(t)) throw new Error(`clicking ${order[i % order.length]} changed nothing`);
      times.push(t);
      await new Promise((r) => setTimeout(r, pattern === 'round-reader' ? readerPause : 5));
    }
    return times.slice(20); // warm-up dropped: 200 measured toggles
  }, [MAIN_WIDGET, pattern, pair, round, readerPause]);

/** The `p`th percentile of `xs`. */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * The A/B scripts' command line (scripts/toggle-ab.mjs, scripts/tti-ab.mjs): the URLs given,
 * at least `least` of them (else the usage line and exit 2), and the rounds (ROUNDS, or
 * `rounds`); with Playwright's Chromium, from PLAYWRIGHT_CORE as make bench sets it.
 */
export function abCommandLine(script, least, usage, rounds) {
  const require = createRequire(import.meta.url);
  const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');
  const urls = process.argv.slice(2);
  if (urls.length < least) {
    console.error(`usage: node scripts/${script} ${usage}`);
    process.exit(2);
  }
  return { chromium, urls, rounds: Number(process.env.ROUNDS ?? rounds) };
}
