// Time to interactive of two or more builds side by side, in one session, with the main thread's
// work split by kind: on a machine shared with other builds the wall clock moves by tens of
// milliseconds between runs, the renderer's own CPU work much less.
//
//   node scripts/tti-ab.mjs URL_A URL_B [...]
//
// Each URL is a page and the fragment or path to land on, as make bench loads them
// (scripts/bench.mjs: the post at #user-experience, mounted when the main explorer carries its
// mount attribute; the floor's _bench/hello/index.html, mounted when #hello carries
// data-mounted: a URL with "hello" in it is taken for the floor). Rounds are interleaved
// (A, B, A, B…), each a fresh browser context. Per run: the time to interactive as make bench
// takes it (navigation to the mount attribute), and from a Chromium trace of the renderer's main
// thread, up to that moment: its busy time (top-level tasks, wall clock), their CPU time, and
// the CPU time in HTML parsing, style, layout, paint, script and wasm compilation; the main
// thread's idle time before the mount (the time to interactive less its busy time: waiting on the
// network or on compilation off the main thread, which CPU figures do not show); and when the page
// asked for its widget's wasm (ms after navigation start). Env: ROUNDS (default 5). Prints each
// run, then each URL's medians and spread (min–max).
import { MAIN_WIDGET, pct, abCommandLine } from './toggle-loop.mjs';

const { chromium, urls, rounds } = abCommandLine('tti-ab.mjs', 1, 'URL_A [URL_B ...]', 5);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'toplevel', 'loading'];
// Trace event names by kind (the Performance panel's grouping).
const KINDS = {
  parse: ['ParseHTML'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet'],
  layout: ['Layout', 'UpdateLayerTree', 'IntersectionObserverController::computeIntersections', 'PrePaint'],
  paint: ['Paint', 'PaintImage', 'Layerize', 'Commit'],
  script: ['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'FireIdleCallback', 'EventDispatch', 'RunMicrotasks', 'V8.Execute'],
  wasm: ['wasm.CompileLazy', 'v8.wasm.compiledModule', 'v8.wasm.streamFromResponseCallback', 'wasm.SyncCompile', 'v8.wasm.compileConsume', 'wasm.InstantiateModule'],
};
const KIND_OF = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((n) => [n, kind])));

/** One run: the time to interactive and the main thread's work before it. */
async function run(url) {
  const floor = /hello/.test(url);
  const [host, attr] = floor ? ['#hello', 'data-mounted'] : [MAIN_WIDGET, 'data-trainer-v2-explorer-mounted'];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(([host, attr]) => {
      new MutationObserver((records, observer) => {
        if (records.some((r) => r.target.matches(host) && r.target.hasAttribute(attr))) {
          window.__interactive = performance.now();
          performance.mark('tti-mounted');
          observer.disconnect();
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: [attr] });
    }, [host, attr]);
    const page = await context.newPage();
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(url);
    await page.waitForFunction(() => window.__interactive !== undefined, null, { timeout: 60000 });
    const tti = await page.evaluate(() => window.__interactive);
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
    const work = mainThread(traceEvents);
    return { tti, ...work, idle: tti - work.busy, wasmAsked: wasmAsked(traceEvents) };
  } finally {
    await context.close();
  }
}

/** The renderer main thread that set the mark: its work from navigation start to the mark. */
function mainThread(events) {
  const mark = events.find((e) => e.name === 'tti-mounted' && e.cat.includes('blink.user_timing'));
  // No mark in the trace (it happens, rarely): every figure of the run is unknown, and left out of the medians.
  if (!mark) return Object.fromEntries(['busy', 'cpu', ...Object.keys(KINDS)].map((k) => [k, NaN]));
  const thread = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid);
  const start = thread.find((e) => e.name === 'navigationStart')?.ts ?? Math.min(...thread.filter((e) => e.ts > 0).map((e) => e.ts));
  const end = mark.ts;
  const within = (e) => e.ph === 'X' && e.ts >= start && e.ts < end;
  const tasks = thread.filter((e) => within(e) && e.name === 'RunTask');
  const busy = tasks.reduce((s, e) => s + Math.min(e.dur, end - e.ts), 0);
  // The thread's CPU time in those tasks (tdur): what the other processes on the machine do not
  // inflate, unlike the wall time a task spends descheduled.
  const cpu = tasks.reduce((s, e) => s + (e.tdur ?? 0) * Math.min(1, (end - e.ts) / e.dur), 0);
  // Each kind's time, counting only the outermost event of a kind (a Layout inside a script's
  // FunctionCall counts as layout, and is subtracted from the script's).
  const spans = thread.filter((e) => within(e) && KIND_OF.has(e.name)).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = {};
  const stack = [];
  for (const e of spans) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const kind = KIND_OF.get(e.name);
    const parent = stack.at(-1);
    if (parent && KIND_OF.get(parent.name) === kind) continue; // nested in its own kind
    const dur = (e.tdur ?? e.dur) * Math.min(1, (end - e.ts) / e.dur);
    self[kind] = (self[kind] ?? 0) + dur;
    if (parent) self[KIND_OF.get(parent.name)] -= dur;
    stack.push(e);
  }
  const ms = (us) => us / 1000;
  return { busy: ms(busy), cpu: ms(cpu), ...Object.fromEntries(Object.keys(KINDS).map((k) => [k, ms(self[k] ?? 0)])) };
}

/** When the page asked for its widget's wasm (the floor's too), in ms after navigation start. */
function wasmAsked(events) {
  const mark = events.find((e) => e.name === 'tti-mounted' && e.cat.includes('blink.user_timing'));
  const start = events.find((e) => e.pid === mark?.pid && e.tid === mark?.tid && e.name === 'navigationStart')?.ts;
  const asked = events.find((e) => e.name === 'ResourceSendRequest' && /_bg\.wasm$/.test(e.args?.data?.url ?? ''));
  return asked && start !== undefined ? (asked.ts - start) / 1000 : NaN;
}

const all = new Map(urls.map((u) => [u, []]));
const fields = ['tti', 'busy', 'cpu', ...Object.keys(KINDS), 'idle', 'wasmAsked'];
const line = (r) => fields.map((f) => `${f} ${r[f].toFixed(1)}`).join(', ');
try {
  for (let i = 0; i < rounds; i++) {
    for (const url of urls) {
      const r = await run(url);
      all.get(url).push(r);
      console.log(`round ${i} ${url}: ${line(r)}`);
    }
  }
} finally {
  await browser.close();
}
for (const [url, runs] of all) {
  const col = (f) => runs.map((r) => r[f]).filter(Number.isFinite);
  const summary = fields.map((f) => `${f} ${pct(col(f), 50).toFixed(1)} (${Math.min(...col(f)).toFixed(1)}–${Math.max(...col(f)).toFixed(1)})`);
  console.log(`${url}: median (min–max) ms over ${runs.length}: ${summary.join(', ')}`);
}
