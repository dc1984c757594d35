// Measures the built site (dist/) in headless Chromium and prints the benchmark table.
// Budgets from issue 5 are checked; machine-speed figures are reported, not judged.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { readNative, shapeSection, times, wasmColdInWorker, wasmInWorker } from './bench-shapes.mjs';
import { merge } from './bench-merge.mjs';
import { WASM_MIGRATE_PAGES, wasmMigrateOverPages } from './bench-wasm-migrate.mjs';
import { memorySection } from './bench-memory.mjs';
import { validateSection } from './bench-validate.mjs';
import { downloads, kb, nowRows, size, sizeBudgets, sizeRows, sum } from './bench-sizes.mjs';
import { MAIN_WIDGET, pct, READER_PAUSE_MS, toggleTimes } from './toggle-loop.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');
const BASE = process.env.BASE_URL;
const [nativeJson, shapesJsonl, outFile, memoryJsonl, validateJson] = process.argv.slice(2);
const memory = memoryJsonl ? memorySection(memoryJsonl) : { lines: [], budgets: [] };
const validate = validateJson ? validateSection(validateJson) : { lines: [], budgets: [] };

const ms = (n) => `${n.toFixed(2)} ms`;
// Milliseconds as seconds with three decimals.
const sec = (milliseconds) => `${(milliseconds / 1000).toFixed(3)} s`;
const mbps = (bytes, seconds) => `${(bytes / 1e6 / seconds).toFixed(1)} MB/s`;

// The widget, the floor and the two lazy modules (scripts/bench-sizes.mjs).
const sizes = downloads();
const [widgetNow, converterNow] = nowRows(sizes);
// The npm package (scripts/build-package.sh): its tarball, and each entry point with what it
// imports statically, before the widget loads.
const tarball = readdirSync('dist/npm').find((f) => f.endsWith('.tgz'));
const packageSize = readFileSync(`dist/npm/${tarball}`).length;
const entryPoints = [
  ['`trainer-v2-explorer` (element.js: the class)', size('dist/element.js')],
  ['`trainer-v2-explorer/define.js` (registers it; imports element.js)', sum(size('dist/define.js'), size('dist/element.js'))],
];
// Issue 33: the element wrapper's cost, against the loader the post had before the element
// (www/explorer.js at 1e8874a, minified as make dist does: 1,207 bytes gzip -9).
const LOADER_BEFORE_ELEMENT = 1207;
const loaderNow = size('dist/explorer.js').gz;
// Issue 18: the figures before the workspace move (b716060), from BENCHMARKS.md at its parent
// cacfed8 (make bench of 2026-11-30). Its `make test`: `.ci/run` (make test with
// CARGO_INCREMENTAL=0) on a clean clone of cacfed8, this machine otherwise idle, 2026-12-02
// 04:38-04:58: 1,169 s wall, 254 cargo tests, 49 e2e tests, 19 host-site tests, no training runs.
// (The team guide's 16 min was measured elsewhere.)
const BEFORE_MOVE = {
  commit: 'cacfed8',
  widgetGz: 159.5,
  converterGz: 389.9,
  toggles: '2.50 ms / 12.10 ms',
  readerToggles: '2.90 ms / 5.00 ms',
  freshToggles: '4.60 ms / 17.80 ms',
  makeTest: '19.5 min',
};
// The same `.ci/run` on a clean clone of e7be221 (main with the debug profile that optimizes only
// what the tests run hot), 2026-12-02 03:52-04:11: 1,121 s wall, 330 cargo tests, 70 e2e tests,
// 27 host-site tests, and the training runs and SDK runs. Before that profile: 1,470 s (1a7dfe8,
// 01:41-02:06).
const MAKE_TEST_AFTER_MOVE = '18.7';
// Toggles, the two builds side by side in one session (2026-12-02 07:09-07:25, this machine
// otherwise idle), since its speed drifts from day to day: scripts/toggle-ab.mjs on cacfed8's dist
// and on 14f9ffa's widget, 8 interleaved rounds of 200 toggles per build and pattern, medians over
// the 1,600. Between rounds of one build the median moves by up to 0.9 ms, so a difference of
// 0.1 ms is within the noise. The JAX pair is 0.2 ms slower because the JAX view holds more: its
// code runs now (560a055: jax.distributed.initialize is given the coordinator, the process count
// and the process id; +532 characters, +10 elements) and it says which field shapes only the V1
// job (9ef79d4). PyTorch and DeepSpeed show nearly the same code in both builds (PyTorch's is 42
// characters shorter), as do the six frameworks of the last row (XGBoost, JAX and TorchTune's code
// grew).
const SAME_SESSION = {
  commit: '14f9ffa',
  backAndForth: ['2.30 ms', '2.50 ms'],
  sameCode: ['2.30 ms', '2.30 ms'],
  unprepared: ['5.60 ms', '5.60 ms'],
  unpreparedSameCode: ['4.80 ms', '5.00 ms'],
};

// Where the widget's wasm bytes go, from twiggy on the build before wasm-opt (which shrinks every
// part and strips the names twiggy needs). Our own code is split by module.
// The workspace's crates (ARCHITECTURE.md): their code is ours, reported by module.
const OURS = ['trainer_v2_explorer', 'explorer_data', 'explorer_core', 'explorer_html'];
const STD = ['core', 'alloc', 'std', 'dlmalloc', 'compiler_builtins'];
function bytesByPart(csvPath) {
  const parts = new Map();
  const add = (part, n) => parts.set(part, (parts.get(part) ?? 0) + n);
  for (const line of readFileSync(csvPath, 'utf8').split('\n').slice(1)) {
    const m = line.match(/^("(?:[^"]|"")*"|[^,]*),(\d+),/);
    if (!m) continue;
    const name = m[1].replace(/^"|"$/g, '').replace(/""/g, '"');
    const bytes = Number(m[2]);
    if (/subsection|^custom section/.test(name)) continue; // names and metadata: not shipped
    if (name.startsWith('data segment')) { add('strings and constants (data segments)', bytes); continue; }
    if (name.startsWith('import ')) { add('imports from the JS glue', bytes); continue; }
    // The first crate named that is not the standard library: `core::ptr::drop_in_place<yew::…>`
    // is yew's code.
    const paths = [...name.matchAll(/(?<![:\w])([A-Za-z_]\w*)(?:\[[0-9a-f]+\])?::([A-Za-z_]\w*)/g)];
    const owner = paths.find(([, crate]) => !STD.includes(crate));
    if (!paths.length) add('tables, exports and runtime helpers', bytes);
    else if (!owner) add('Rust standard library', bytes);
    else if (OURS.includes(owner[1])) add(`ours: ${owner[2]}`, bytes);
    else add(owner[1], bytes);
  }
  const total = [...parts.values()].reduce((a, b) => a + b, 0);
  return { total, rows: [...parts].sort((a, b) => b[1] - a[1]) };
}
const byPart = bytesByPart('dist/_bench/twiggy.csv');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// Time to interactive: from navigation to the moment the host's mount attribute appears, which
// the widget and the floor set right after starting Yew; a MutationObserver from an init script
// notes it, and its callback runs after the microtasks before it, Yew's first render among them.
// (Taking performance.now() once Playwright's waitForSelector returned, as before 2026-12-05,
// added its polling: it starts at the load event and polls at growing intervals, so the figure
// was the load event plus a poll step, 200-400 ms more than the mount on both pages.)
async function timeToInteractive(path, host, attr, runs = 5) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(([host, attr]) => {
      new MutationObserver((records, observer) => {
        if (records.some((r) => r.target.matches(host) && r.target.hasAttribute(attr))) {
          window.__interactive = performance.now();
          observer.disconnect();
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: [attr] });
    }, [host, attr]);
    const page = await context.newPage();
    await page.goto(new URL(path, BASE).href);
    await page.waitForFunction(() => window.__interactive !== undefined, null, { timeout: 60000 });
    times.push(await page.evaluate(() => window.__interactive));
    await context.close();
  }
  return pct(times, 50);
}

const ttiWidget = await timeToInteractive('#user-experience', MAIN_WIDGET, 'data-trainer-v2-explorer-mounted');
const ttiHello = await timeToInteractive('_bench/hello/index.html', '#hello', 'data-mounted');

// Migrate throughput in wasm: the converter module on the same 1 MB manifest, in fresh blank pages
// (scripts/bench-wasm-migrate.mjs), before the post's page below is opened.
const wasmMigrate = await wasmMigrateOverPages(browser, BASE);

// Toggle-to-DOM: click a framework radio, time until the widget's DOM has changed.
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
await page.goto(new URL('#user-experience', BASE).href);
await page.waitForSelector(`${MAIN_WIDGET}[data-trainer-v2-explorer-mounted]`);
// The loop and its three patterns: scripts/toggle-loop.mjs.
const toggles = await toggleTimes(page, 'back-and-forth');
const readerToggles = await toggleTimes(page, 'round-reader');
const freshToggles = await toggleTimes(page, 'round-unprepared');

// The worst-case shapes, in a worker as the widget converts them.
const shapesNative = readNative(shapesJsonl);
const shapesWasm = await wasmInWorker(page, shapesNative.map((n) => n.name));
const shapesCold = await wasmColdInWorker(browser, BASE, shapesNative.map((n) => n.name));
await browser.close();
const native = JSON.parse(readFileSync(nativeJson, 'utf8'));
const shapes = shapeSection(shapesNative, shapesWasm, shapesCold);

// Lighthouse 12.2.3 on the built post (mobile preset, its default), with the system Chromium,
// served gzip-compressed (scripts/bench.sh).
function lighthouse() {
  const bin = process.env.LIGHTHOUSE;
  if (!bin) return null;
  const run = spawnSync(bin, [BASE, '--quiet', '--only-categories=accessibility,performance', '--output=json',
    '--chrome-flags=--headless=new --no-sandbox --disable-background-networking --disable-component-update --disable-sync'],
    { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`lighthouse failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout.toString());
  const score = (c) => Math.round(report.categories[c].score * 100);
  const cls = report.audits['cumulative-layout-shift'];
  return { a11y: score('accessibility'), perf: score('performance'), cls: cls.displayValue, clsValue: cls.numericValue };
}
const lh = lighthouse();

const budgets = [
  sizeBudgets(sizes)[0],
  sizeBudgets(sizes)[2],
  sizeBudgets(sizes)[3],
  // Issue 37: the widget interactive within twice the floor's time, in the same run.
  ['Time to interactive within 2× the bare Yew floor\'s (same run)', ttiWidget <= 2 * ttiHello, `${ms(ttiWidget)} = ${times(ttiWidget, ttiHello)} the floor's ${ms(ttiHello)} ≤ 2×`],
  ['Toggle to DOM, median of 200 (back and forth)', pct(toggles, 50) <= 4, `${ms(pct(toggles, 50))} ≤ 4 ms`],
  // The budget is for what a reader gets: between two clicks a reader reads for far longer than
  // the preparation takes. The unprepared round is reported below, not judged.
  ['Toggle to DOM, median of 200 (each selection new, reader pauses)', pct(readerToggles, 50) <= 4, `${ms(pct(readerToggles, 50))} ≤ 4 ms`],
  // Issue 37: every toggle within a 60 Hz frame, in each of the three rows.
  ...[['back and forth', toggles], ['each selection new, reader pauses', readerToggles], ['each selection new, unprepared', freshToggles]].map(([name, xs]) => [
    `Toggle to DOM, p95 of 200 (${name})`,
    pct(xs, 95) <= 16,
    `${ms(pct(xs, 95))} ≤ 16 ms`,
  ]),
  sizeBudgets(sizes)[1],
  ['1 MB manifest converts within a second (native)', native.seconds <= 1, `${native.seconds.toFixed(3)} s ≤ 1 s`],
  // Issue 37: 30 MB/s natively, and (an aim) within 3× of only parsing the same text.
  ['1 MB manifest converts at 30 MB/s or more (native)', native.bytes / 1e6 / native.seconds >= 30, `${(native.bytes / 1e6 / native.seconds).toFixed(1)} MB/s ≥ 30 MB/s`],
  ...(native.parse_seconds
    ? [['1 MB manifest converts within 3× of only parsing it (native, same run)', native.seconds <= 3 * native.parse_seconds, `${times(native.seconds, native.parse_seconds)} ≤ 3×`]]
    : []),
  // Issue 37: the converter module's whole answer (conversion, pod comparison and the HTML view) on
  // the page's thread, judged on the summary row's own figure: the median over the pages of each
  // page's best of 3 calls after its first.
  ['1 MB manifest converts at 3 MB/s or more (wasm in Chromium)', wasmMigrate.bytes / 1e6 / (wasmMigrate.ms / 1000) >= 3, `${mbps(wasmMigrate.bytes, wasmMigrate.ms / 1000)} ≥ 3 MB/s`],
  ...shapes.budgets,
  ...memory.budgets,
  ...validate.budgets,
  ['The element wrapper (the post\'s loader now, explorer.js with the element, less the loader before it; gzip -9)', loaderNow - LOADER_BEFORE_ELEMENT < 2000, `${kb(loaderNow)} − ${kb(LOADER_BEFORE_ELEMENT)} = ${kb(loaderNow - LOADER_BEFORE_ELEMENT)} < 2 KB`],
  ...(lh
    ? [
        ['Lighthouse accessibility', lh.a11y === 100, `${lh.a11y} = 100`],
        ['Lighthouse performance', lh.perf >= 95, `${lh.perf} ≥ 95`],
        ['No layout shift (Lighthouse CLS)', lh.clsValue === 0, `${lh.cls} = 0`],
      ]
    : []),
];
const row = (name, w, h) => `| ${name} | ${w} | ${h} |`;
const [wasmRow, jsRow, transferRow, ratioRow, converterRow, explainRow, upgradeRow] = sizeRows(sizes).map((cells) => row(...cells));
// The file's blocks, each between its markers (scripts/bench-merge.mjs): every line outside them is
// written by hand and kept as it is.
const blocks = [
  ['summary', [
    '# Benchmarks',
    '',
    `Produced by \`make bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}; Chromium headless).`,
    'Sizes are of `make dist` output, in KB of 1,000 bytes. Speed figures depend on the machine; only the budgets are pass/fail.',
    '',
    '| Measure | Trainer V2 Explorer | Bare Yew hello-world (floor) |',
    '|---|---|---|',
    wasmRow,
    jsRow,
    row('CSS (raw / gzip -9)', 'inside the wasm (shadow-root stylesheet)', 'none'),
    transferRow,
    ratioRow,
    row('Time to interactive: navigation to the mount (the main explorer, landing on it at #user-experience; the floor\'s one element), median of 5', ms(ttiWidget), ms(ttiHello)),
    row('Toggle to DOM, back and forth between two frameworks: median / p95 (200 toggles)', `${ms(pct(toggles, 50))} / ${ms(pct(toggles, 95))}`, '–'),
    row(`Toggle to DOM, round all frameworks (none among the last 4 kept), ${READER_PAUSE_MS} ms reader pause between clicks, so the views one click away are prepared at idle time: median / p95 (200 toggles)`, `${ms(pct(readerToggles, 50))} / ${ms(pct(readerToggles, 95))}`, '–'),
    row('Toggle to DOM, round all frameworks, 5 ms between clicks, so nothing is prepared (preparation waits 20 ms; every toggle builds, highlights and parses): median / p95 (200 toggles)', `${ms(pct(freshToggles, 50))} / ${ms(pct(freshToggles, 95))}`, '–'),
    converterRow,
    explainRow,
    upgradeRow,
    row('Migrate 1 MB manifest, native (best of 5); floor: the same text only parsed into YAML values by the same parser (yaml_serde), in the same run', `${native.seconds.toFixed(3)} s (${mbps(native.bytes, native.seconds)}, ${native.documents} documents; ${native.parse_seconds ? times(native.seconds, native.parse_seconds) : '–'} the floor)`, native.parse_seconds ? `${native.parse_seconds.toFixed(3)} s (${mbps(native.bytes, native.parse_seconds)})` : 'not run'),
    row('Lighthouse 12.2.3 (mobile; the post served gzip-compressed, as its hosts serve it): accessibility / performance / CLS', lh ? `${lh.a11y} / ${lh.perf} / ${lh.cls}` : 'not run', '–'),
    row(`Migrate 1 MB manifest, wasm in Chromium, on ${WASM_MIGRATE_PAGES} fresh blank pages (each in its own browser context): the median of each page's best of 3 calls after its first, and the pages' range (lowest–highest); the first call (V8 compiling the module's functions as they are first called) on its own, median of the pages`, `${sec(wasmMigrate.ms)} (${mbps(wasmMigrate.bytes, wasmMigrate.ms / 1000)}); pages ${(wasmMigrate.lowestMs / 1000).toFixed(3)}–${sec(wasmMigrate.highestMs)}; first call ${sec(wasmMigrate.firstMs)}`, '–'),
  ]],
  ['npm package', [
    '## The npm package',
    '',
    `\`make package\` (npm pack into dist/npm/): ${tarball}, ${kb(packageSize)}. Each entry point with what it imports before the widget loads (the widget, the converter, "What Kubernetes runs" and the upgrade notes then load as above):`,
    '',
    '| Entry point | Raw | gzip -9 |',
    '|---|---|---|',
    ...entryPoints.map(([name, s]) => `| ${name} | ${kb(s.raw)} | ${kb(s.gz)} |`),
  ]],
  ['worst-case inputs', shapes.lines],
  // Not run (no file given): the file's last figures stay, with their block.
  ...(memory.lines.length ? [['peak memory', memory.lines]] : []),
  ...(validate.lines.length ? [['validate', validate.lines]] : []),
  ['workspace move', [
    '## Before and after the workspace move',
    '',
    `Before: main at ${BEFORE_MOVE.commit}, the last commit before the move into crates/ (b716060), as BENCHMARKS.md gave it then (make bench of 2026-11-30); the rows "in one session" (scripts/toggle-ab.mjs) and make test measured both commits on 2026-12-02 (scripts/bench.mjs says how). After: this run, which also holds every branch merged since the move.`,
    '',
    '| Measure | Before the move | Now |',
    '|---|---|---|',
    row(widgetNow[0], `${BEFORE_MOVE.widgetGz.toFixed(1)} KB`, widgetNow[1]),
    row(converterNow[0], `${BEFORE_MOVE.converterGz.toFixed(1)} KB (wasm + glue + converter.js + worker)`, converterNow[1]),
    row('Toggle to DOM, back and forth: median / p95', BEFORE_MOVE.toggles, `${ms(pct(toggles, 50))} / ${ms(pct(toggles, 95))}`),
    row('Toggle to DOM, each selection new, reader pauses: median / p95', BEFORE_MOVE.readerToggles, `${ms(pct(readerToggles, 50))} / ${ms(pct(readerToggles, 95))}`),
    row('Toggle to DOM, each selection new, unprepared: median / p95', BEFORE_MOVE.freshToggles, `${ms(pct(freshToggles, 50))} / ${ms(pct(freshToggles, 95))}`),
    row('Toggle to DOM, back and forth between JAX and PyTorch, both builds in one session: median', SAME_SESSION.backAndForth[0], `${SAME_SESSION.backAndForth[1]} (${SAME_SESSION.commit}; the JAX code now runs, and is longer)`),
    row('Toggle to DOM, back and forth between PyTorch and DeepSpeed (nearly the same code in both builds), in one session: median', SAME_SESSION.sameCode[0], `${SAME_SESSION.sameCode[1]} (${SAME_SESSION.commit})`),
    row('Toggle to DOM, each selection new, unprepared, both builds in one session: median', SAME_SESSION.unprepared[0], `${SAME_SESSION.unprepared[1]} (${SAME_SESSION.commit})`),
    row('Toggle to DOM, each selection new, unprepared, round of PyTorch, DeepSpeed, MLX, MPI, TensorFlow and PaddlePaddle (nearly the same code in both builds), in one session: median', SAME_SESSION.unpreparedSameCode[0], `${SAME_SESSION.unpreparedSameCode[1]} (${SAME_SESSION.commit})`),
    row('make test (fresh .ci/run on a clean clone, 2 cores, idle)', `${BEFORE_MOVE.makeTest} (254 cargo tests, 49 e2e, 19 host-site)`, `${MAKE_TEST_AFTER_MOVE} min (330 cargo tests, 70 e2e, 27 host-site, training runs)`),
  ]],
  ['wasm bytes', [
    '## Where the wasm bytes go',
    '',
    `By \`twiggy top\` on the wasm-release build before wasm-opt (${kb(byPart.total)} of code and data; wasm-opt then shrinks it to ${kb(sizes.widget.wasm.raw)}).`,
    'Generic standard-library code counts for the first other crate its name mentions (`drop_in_place<yew::…>` is yew\'s); what names none stays with the standard library.',
    '',
    '| Part | Bytes | Share |',
    '|---|---|---|',
    ...byPart.rows.slice(0, 14).map(([part, n]) => `| ${part} | ${kb(n)} | ${((100 * n) / byPart.total).toFixed(1)}% |`),
    `| everything else | ${kb(byPart.rows.slice(14).reduce((a, [, n]) => a + n, 0))} | ${((100 * byPart.rows.slice(14).reduce((a, [, n]) => a + n, 0)) / byPart.total).toFixed(1)}% |`,
  ]],
  ['budgets', [
    '## Budgets',
    '',
    '| Budget | Result | |',
    '|---|---|---|',
    ...budgets.map(([name, ok, figure]) => `| ${name} | ${figure} | ${ok ? 'met' : '**missed**'} |`),
  ]],
].map(([name, lines]) => [name, lines.join('\n')]);
console.log(blocks.map(([, text]) => text).join('\n\n'));
if (outFile) writeFileSync(outFile, merge(existsSync(outFile) ? readFileSync(outFile, 'utf8') : '', blocks));
const missed = budgets.filter(([, ok]) => !ok);
if (missed.length) {
  console.error(`budget missed: ${missed.map(([n]) => n).join('; ')}`);
  process.exit(1);
}
