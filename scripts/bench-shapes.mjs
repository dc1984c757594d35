// The migrator's worst-case shapes (tests/shapes, written out by `migrate_throughput --shapes`):
// the converter module in a worker, as the widget runs it, per shape; with the native figures,
// the rows and budgets of BENCHMARKS.md's "Worst-case inputs" section.
//
// Part of `make bench` (scripts/bench.mjs imports it). Alone, against a served dist/ holding the
// shapes in _bench/shapes/ and _bench/blank.html (scripts/bench.sh writes them):
//   BASE_URL=http://127.0.0.1:PORT/ node scripts/bench-shapes.mjs dist/_bench/shapes.jsonl
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export const NATIVE_BUDGET_S = 1;
export const WASM_BUDGET_S = 3;

/** Times each shape in a worker running pkg-migrate/converter-worker.js: posting the text to
 * the answer arriving, best of `runs` after a first call, in one worker: a warm worker, whose
 * module code V8 has compiled and tiered up on the calls before. */
export async function wasmInWorker(page, names, runs = 3) {
  return page.evaluate(
    async ({ names, runs }) => {
      const worker = new Worker('/pkg-migrate/converter-worker.js', { type: 'module' });
      let id = 0;
      const ask = (text) =>
        new Promise((resolve, reject) => {
          const mine = id++;
          worker.onmessage = ({ data }) => (data.id === mine ? ('error' in data ? reject(new Error(data.error)) : resolve(data.answer)) : null);
          worker.postMessage({ id: mine, text });
        });
      await ask('kind: Warmup'); // loads and instantiates the module
      const out = {};
      for (const name of names) {
        const text = await (await fetch(`/_bench/shapes/${name}.yaml`)).text();
        let best = Infinity;
        let answer;
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          answer = await ask(text);
          best = Math.min(best, performance.now() - t0);
        }
        const parsed = JSON.parse(answer);
        out[name] = { seconds: best / 1000, outcome: parsed.error ? `refused: ${parsed.error}` : 'converted' };
      }
      worker.terminate();
      return out;
    },
    { names, runs },
  );
}

/** Times each shape's first conversion in a fresh worker, as a reader's first paste gets it:
 * posting the text to the answer arriving, once. Per shape a new browser context, whose renderer
 * process is new too, so V8 has compiled none of the module's code for an earlier shape; there
 * the module is downloaded and compiled as converter.js does it (`WebAssembly.compile`, which
 * compiles a function only when it first runs), and a new worker is handed the text with it,
 * as converter.js hands it over: the worker instantiates the module inside the timed call. */
export async function wasmColdInWorker(browser, baseUrl, names) {
  const out = {};
  for (const name of names) {
    const context = await browser.newContext();
    const page = await context.newPage();
    // A blank page of the post's origin (scripts/bench.sh writes it): the post's widgets would
    // render beside the call and share the cores with it.
    await page.goto(new URL('_bench/blank.html', baseUrl).href);
    out[name] = await page.evaluate(async (name) => {
      const text = await (await fetch(`/_bench/shapes/${name}.yaml`)).text();
      const module = await WebAssembly.compile(await (await fetch('/pkg-migrate/trainer_v2_migrate_bg.wasm')).arrayBuffer());
      const worker = new Worker('/pkg-migrate/converter-worker.js', { type: 'module' });
      const t0 = performance.now();
      const answer = await new Promise((resolve, reject) => {
        worker.onmessage = ({ data }) => ('error' in data ? reject(new Error(data.error)) : resolve(data.answer));
        worker.onerror = (event) => reject(new Error(`the worker did not load: ${event.message}`));
        worker.postMessage({ id: 0, text, module });
      });
      const seconds = (performance.now() - t0) / 1000;
      worker.terminate();
      return { seconds, outcome: JSON.parse(answer).error ? 'refused' : 'converted' };
    }, name);
    await context.close();
  }
  return out;
}

export function readNative(path) {
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const s = (x) => `${x.toFixed(3)} s`;
// Wall clock, and CPU time where migrate_throughput measured it (less noisy on a shared machine).
const wallCpu = (wall, cpu) => (cpu === undefined ? s(wall) : `${s(wall)} (CPU ${s(cpu)})`);
/** `ours` as a multiple of `floor` (`–` where the floor was not measured or took no time). */
export const times = (ours, floor) => (floor > 0 ? `${(ours / floor).toFixed(1)}×` : '–');

/** The section's markdown lines, and the budgets as [name, met, figure]. `wasm` holds the warm
 * worker's figures (`wasmInWorker`), `cold` the first call's in a fresh worker (`wasmColdInWorker`). */
export function shapeSection(native, wasm, cold) {
  // Natively a manifest is converted by the CLI; the widget's HTML view runs only in the browser,
  // where the worker's budget holds it (the native view column is there to compare, not budgeted).
  const slowest = () => Math.max(...native.map((n) => n.cli));
  // The worker's budget judges a reader's first paste, the slower of the two.
  const slowestOf = (figures) => {
    const [name, w] = Object.entries(figures).reduce((a, b) => (b[1].seconds > a[1].seconds ? b : a));
    return { name, seconds: w.seconds };
  };
  const wasmSlowest = slowestOf(cold);
  const warmSlowest = slowestOf(wasm);
  const seconds = (figures, name) => (figures[name] ? s(figures[name].seconds) : 'not run');
  const lines = [
    '## Worst-case inputs',
    '',
    'Each shape fills the 4 MiB input limit (tests/shapes/mod.rs; crates/migrate-wasm/tests/migrate_shapes.rs checks what each converts to).',
    'Native: `cargo run --release --example migrate_throughput -- --shapes DIR`, best of 3 (wall clock, and CPU time in brackets), for the CLI (convert, print YAML and report) and for the widget\'s view (the same, laid out as HTML).',
    'wasm: the converter module in a worker in Chromium (`scripts/bench-shapes.mjs`), from posting the text to the answer: a reader\'s first paste (the first call of a fresh worker, in a new browser context with the module compiled anew, so V8 compiles its code during the call) and a warm worker (best of 3 after a first call).',
    'Floor: the same text only parsed into YAML values, document by document, by the parser the converter reads with (yaml_serde), natively in the same run, best of 3; the CLI\'s time as a multiple of it, by CPU time (issue 37 aims at 3× at most).',
    '',
    '| Shape | Size | Outcome | Native: CLI / view | Floor: parse only (native) | CLI ÷ floor | wasm in a worker: first paste | wasm in a worker: warm |',
    '|---|---|---|---|---|---|---|---|',
    ...native.map((n) => {
      const outcome = n.outcome.length > 90 ? `${n.outcome.slice(0, 87)}…` : n.outcome;
      // No floor for a refused shape: the parser alone expands aliases without a budget.
      const floor = n.parse == null ? '–' : wallCpu(n.parse, n.parse_cpu);
      return `| ${n.name}: ${n.what} | ${mb(n.bytes)} | ${outcome} | ${wallCpu(n.cli, n.cli_cpu)} / ${wallCpu(n.view, n.view_cpu)} | ${floor} | ${times(n.cli_cpu ?? n.cli, n.parse_cpu ?? n.parse)} | ${seconds(cold, n.name)} | ${seconds(wasm, n.name)} |`;
    }),
    '',
  ];
  const budgets = [
    [`Every worst-case shape converts or is refused within ${NATIVE_BUDGET_S} s (native CLI)`, slowest() <= NATIVE_BUDGET_S, `slowest ${s(slowest())} ≤ ${NATIVE_BUDGET_S} s`],
    [
      `Every worst-case shape converts, or is refused, and its view is rendered within ${WASM_BUDGET_S} s (wasm in a worker, a reader's first paste)`,
      wasmSlowest.seconds <= WASM_BUDGET_S,
      `slowest ${wasmSlowest.name} ${s(wasmSlowest.seconds)} ≤ ${WASM_BUDGET_S} s (warm worker: slowest ${warmSlowest.name} ${s(warmSlowest.seconds)})`,
    ],
  ];
  return { lines, budgets };
}

// Alone: measure and print the section.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const require = createRequire(import.meta.url);
  const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');
  const native = readNative(process.argv[2]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const names = native.map((n) => n.name);
  const cold = await wasmColdInWorker(browser, process.env.BASE_URL, names);
  const page = await browser.newPage();
  await page.goto(process.env.BASE_URL);
  const wasm = await wasmInWorker(page, names);
  await browser.close();
  const { lines, budgets } = shapeSection(native, wasm, cold);
  console.log([...lines, ...budgets.map(([name, ok, figure]) => `| ${name} | ${figure} | ${ok ? 'met' : '**missed**'} |`)].join('\n'));
  if (budgets.some(([, ok]) => !ok)) process.exit(1);
}
