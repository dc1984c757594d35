// Late first renders on demand: what a loaded machine does to the widget, made certain.
//
// Yew 0.23's scheduler yields to the browser once it has run for 16 ms (by Date.now), through a
// zero-delay timer, and the widget's first render (and every later one) then lands a frame or
// more after the code that asked for it; www/element.js's mount turn waits for that render. On
// an idle machine the scheduler rarely yields, so a test that races the render passes here and
// fails in CI (e6f6a86). `lateRenders` makes every yield happen and every zero-delay timer late.
//
// E2E_LATE_RENDERS (read by helpers.mjs's launch, which adds the script to every context):
//   1 or frames  zero-delay timers are held until the page next scrolls or two animation frames
//                have passed, whichever comes first (so a page nobody scrolls still progresses);
//   NNNms        zero-delay timers run NNN ms late (e.g. 500ms), scroll or not;
//   away         as frames, and every widget's first render waits until the page has scrolled
//                away from where it landed (see `AWAY`).

/** The page script. Passed to addInitScript by value, so it uses nothing outside itself.
 * `heldUntil` is 'scroll' (held until the page scrolls; a page that never scrolls never renders
 * again), 'scroll-or-frames', 'away' ('scroll-or-frames' with `AWAY`'s wait), or a number of
 * milliseconds. */
export function lateRenders(heldUntil) {
  if (heldUntil === 'away') {
    // AWAY: until the reader acts, each widget's first render puts the page back where it landed
    // (www/element.js restoreFragment), so a test that opens a #fragment or a selection and then
    // scrolls with Playwright (no reader's act) races every first render still to come: on a
    // loaded machine one came after the scroll and took the page back (CI: mountAll, e51356c;
    // the 390 px legend test, d1d72ef). Here the widget's module, once instantiated, is handed
    // over (and so every first render made) only when the page has scrolled half a window or
    // more from where it stood a frame after its load event (its landing: the fragment, or the
    // explorer a selection opens): in that scroll's event when the module is ready by then, so
    // the first render and the page's jump back come in the frame that draws the scroll. A page
    // nobody scrolls away gets it 2 s after its load event. The timer and the frame are the
    // page's own as this script finds them, before a test's fake clock (clock.install) holds them.
    const [timer, frame] = [setTimeout, requestAnimationFrame];
    let landing = null;
    let away = false;
    const waiting = [];
    const handOver = () => {
      away = true;
      for (const resume of waiting.splice(0)) resume();
    };
    addEventListener('load', () => {
      timer(handOver, 2000);
      frame(() => (landing = scrollY));
    });
    addEventListener('scroll', () => landing !== null && Math.abs(scrollY - landing) >= innerHeight / 2 && handOver(), { passive: true });
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const instantiate = WebAssembly[name];
      WebAssembly[name] = (...args) =>
        instantiate.apply(WebAssembly, args).then((made) => (away ? made : new Promise((resume) => waiting.push(() => resume(made)))));
    }
    heldUntil = 'scroll-or-frames';
  }
  const now = Date.now;
  let ahead = 0;
  // Every reading is 17 ms after the one before: the scheduler's deadline has passed by the
  // time it next looks, so it yields whenever it may.
  Date.now = () => now() + (ahead += 17);

  const setTimer = window.setTimeout;
  const clearTimer = window.clearTimeout;
  if (typeof heldUntil === 'number') {
    window.setTimeout = (run, ms, ...args) => setTimer(run, Number(ms) > 0 ? ms : heldUntil, ...args);
    return;
  }
  // Held timers get ids of their own, so clearing one (gloo's Timeout when dropped) cancels it.
  const held = new Map();
  let nextId = 2 ** 30;
  let releaseQueued = false;
  const release = () => {
    releaseQueued = false;
    const due = [...held.values()];
    held.clear();
    for (const run of due) run();
  };
  addEventListener('scroll', release, { capture: true, passive: true });
  window.setTimeout = (run, ms, ...args) => {
    if (Number(ms) > 0) return setTimer(run, ms, ...args);
    const id = nextId++;
    held.set(id, () => run(...args));
    if (heldUntil === 'scroll-or-frames' && !releaseQueued) {
      releaseQueued = true;
      requestAnimationFrame(() => requestAnimationFrame(release));
    }
    return id;
  };
  window.clearTimeout = (id) => (held.delete(id) ? undefined : clearTimer(id));
}

/** What E2E_LATE_RENDERS asks for: `lateRenders`'s argument, or null when unset. */
export function lateRendersFromEnv(value = process.env.E2E_LATE_RENDERS) {
  if (!value || value === '0') return null;
  if (value === '1' || value === 'frames') return 'scroll-or-frames';
  if (value === 'away') return 'away';
  const late = /^(\d+)ms$/.exec(value);
  if (late && Number(late[1]) > 0) return Number(late[1]);
  throw new Error(`E2E_LATE_RENDERS=${value}: expected 1 (or frames), away, or a delay such as 500ms`);
}
