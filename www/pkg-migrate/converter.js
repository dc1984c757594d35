// The V1 → V2 converter for migrate mode, loaded by element.js the first time it is needed.
// It ships in pkg-migrate/ next to the converter module (make dist copies it there).
// It runs in a worker, so converting a large paste never blocks the page; where a worker cannot
// start (an old browser, a policy that forbids it), it runs on the page instead.
//
// The reader may type faster than the converter answers, so the worker gets at most one text
// at a time, and at most one more waits: a newer text replaces the waiting one, whose caller
// hears it was superseded. A conversion the worker has not answered 5 s after it was handed to
// it gets a message for the reader, and the worker is stopped; the next conversion starts a
// fresh one. The 5 s count from the hand-over, not from the edit: a text waiting behind the one
// before it is not late, and counting that wait timed out healthy conversions on a busy machine.
//
// Nor is the module's download late: on a slow connection the 1.2 MB module takes longer than
// 5 s. The page downloads and compiles it once, telling the widget how far the download is, and
// hands the compiled module to each worker it starts with the text: a conversion is handed over
// only once the module is here, and a worker started after a hung one needs no new download.
import { linkSources } from './sources.js';
import { copy } from './copy-blocks.js';
// explain.css, pods.css, migrate.css and upgrade.css as strings (scripts/build-dist.sh writes styles.js).
import { EXPLAIN, PODS, MIGRATE, UPGRADE } from './styles.js';

// Every file this module loads is named by a literal next to import.meta.url, so that a bundler
// that bundles the package (webpack, Vite) follows it and emits the file.
export const TIMEOUT_MS = 5000;
let worker;
let onPage;
let nextId = 0;
/** The conversion the worker is running, and the one waiting for it: {id, text, release, resolve, reject}. */
let running = null;
let waiting = null;
let watchdog;

// Answers in the converter's own JSON shape (see migrate-wasm), so the widget shows them as it
// shows a refused input.
const answer = (error) => JSON.stringify({ error });
const SUPERSEDED = answer('superseded by a newer edit');
const timedOut = (release) =>
  answer(
    `The conversion did not finish within ${TIMEOUT_MS / 1000} seconds, so it was stopped. ` +
      `Edit the text to try again, or convert the file with the CLI: trainer-explorer migrate --target ${release} FILE`,
  );

// The compiled converter module, downloaded once for every worker and the page. `progress`
// holds the callbacks of the conversions waiting for it: each hears (bytes received, total bytes
// or null when the server does not say, or says only the compressed size).
let compiled;
const progress = new Set();
function converterModule(onProgress) {
  if (typeof onProgress === 'function') progress.add(onProgress);
  compiled ??= download(new URL('./trainer_v2_migrate_bg.wasm', import.meta.url)).then(
    (bytes) => WebAssembly.compile(bytes),
    (err) => {
      compiled = undefined; // the next conversion tries the download again
      throw err;
    },
  );
  const done = () => progress.delete(onProgress);
  compiled.then(done, done);
  return compiled;
}

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const encoded = (response.headers.get('Content-Encoding') ?? 'identity') !== 'identity';
  const total = encoded ? null : Number(response.headers.get('Content-Length')) || null;
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  const tell = () => progress.forEach((f) => f(received, total));
  tell();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    tell();
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function loadOnPage() {
  onPage ??= Promise.all([import('./trainer_v2_migrate.js'), converterModule()]).then(async ([m, module]) => {
    await m.default({ module_or_path: module });
    return m;
  });
  return onPage;
}

// "What Kubernetes runs" has a module of its own (crates/explain-wasm): a fraction of the
// converter's size, since it parses no YAML. So have the upgrade notes (crates/upgrade-wasm): they
// read YAML, but need no migration, pod comparison or CEL. Each is downloaded when a reader opens
// its pane, and once.
// `importModule` names the file by a literal, for bundlers (above).
function loadedOnce(importModule) {
  let loading;
  return () => {
    loading ??= importModule().then(async (m) => {
      await m.default();
      return m;
    });
    return loading;
  };
}
const loadExplainer = loadedOnce(() => import('./trainer_v2_explain.js'));
const loadUpgrader = loadedOnce(() => import('./trainer_v2_upgrade.js'));

function convertOnPage(text, release) {
  return loadOnPage().then((m) => m.migrate(text, release));
}

// The lazily filled disclosures (src/ui/components/lazy_pane.rs): the widget hands over an
// opened one; the core computes and renders the HTML for its data-query (it takes microseconds,
// so on the page, not in the worker), and a new query re-renders it while it is open. data-pane
// names the export: "What Kubernetes runs" (explorer_html::explain_view) and "Upgrading from an
// older release" (upgrade_view), each in its own module.
const PANES = {
  explain: (query) => loadExplainer().then((m) => m.explain(query)),
  upgrade: (query) => loadUpgrader().then((m) => m.upgrade_notes(query)),
};
// The panes' and the result's stylesheets are adopted by the shadow root that shows them: a
// constructable stylesheet is allowed by a strict style-src 'self' (an inline <style> is not),
// and a string bundles alike in every bundler, where a linked .css file would go through the
// host site's CSS pipeline (Docusaurus's breaks on it). The widget's own sheet stays first.
const sheets = new Map();
function adopt(root, css) {
  if (!root?.adoptedStyleSheets) return;
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
const STYLES = { explain: EXPLAIN, upgrade: UPGRADE };
const followed = new WeakSet();
export function showPane(details) {
  const body = details.querySelector('.pane-body');
  const compute = PANES[details.dataset.pane];
  const render = () => {
    if (!details.open || !body || !compute) return;
    const query = details.dataset.query;
    if (!body.firstChild) body.innerHTML = '<p class="msg-working" role="status">Working it out…</p>';
    compute(query)
      .then((json) => JSON.parse(json))
      .then((answer) => {
        if (details.dataset.query !== query) return; // a newer selection renders instead
        if ('html' in answer) {
          if (STYLES[details.dataset.pane]) adopt(details.getRootNode(), STYLES[details.dataset.pane]);
          body.innerHTML = answer.html; // escaped by the core
          linkSources(body); // "What Kubernetes runs": items highlight their YAML lines
        } else showError(body, answer.error);
      })
      .catch((err) => showError(body, `The converter did not load: ${err?.message ?? err}`));
  };
  if (!followed.has(details)) {
    followed.add(details);
    new MutationObserver(render).observe(details, { attributes: true, attributeFilter: ['data-query'] });
  }
  render();
}

function showError(body, text) {
  const p = document.createElement('p');
  p.className = 'migrate-error';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  body.replaceChildren(p);
}

function startWorker() {
  try {
    worker = new Worker(new URL('./converter-worker.js', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
    return;
  }
  worker.onmessage = ({ data }) => {
    if (data.id !== running?.id) return;
    const job = running;
    running = null;
    clearTimeout(watchdog);
    if ('error' in data) job.reject(new Error(data.error));
    else job.resolve(data.answer);
    next();
  };
  // The worker script itself did not load: hand what is waiting to the page.
  worker.onerror = (event) => {
    event.preventDefault();
    clearTimeout(watchdog);
    worker.terminate();
    worker = null;
    for (const job of [running, waiting]) if (job) convertOnPage(job.text, job.release).then(job.resolve, job.reject);
    running = waiting = null;
  };
}

/** Hands the waiting conversion to the worker when it is free. */
function next() {
  if (running || !waiting) return;
  running = waiting;
  waiting = null;
  const job = running;
  clearTimeout(watchdog);
  watchdog = setTimeout(() => stopHungWorker(job), TIMEOUT_MS);
  worker.postMessage({ id: running.id, text: running.text, release: running.release, module: running.module });
}

/** Stops a worker that has not answered: the reader is told, and a new worker starts next time. */
function stopHungWorker(job) {
  worker?.terminate();
  worker = undefined;
  // The message goes to the newest text, the one the reader looks at; a hung one before it is
  // superseded. The next edit starts a fresh worker.
  if (waiting) {
    job.resolve(SUPERSEDED);
    waiting.resolve(timedOut(waiting.release));
  } else {
    job.resolve(timedOut(job.release));
  }
  running = waiting = null;
}

// The result is styled by migrate.css; "What changes for your pods" comes in the answer's html
// with the field report (pods.css), and "What Kubernetes runs" for each TrainJob after the
// objects (explain.css). The widget that asked places the answer in its shadow root: the sheets
// (7 KB of CSS, parsed once) go to every mounted widget's root before it does, so a result
// never shows unstyled.
function styled(answer) {
  for (const host of document.querySelectorAll('[data-trainer-v2-explorer-mounted]')) {
    for (const css of [MIGRATE, PODS, EXPLAIN]) adopt(host.shadowRoot, css);
  }
  return answer;
}

/** Converts V1 YAML into objects for the Trainer release line `release` (v2.1); resolves to the
 * converter's JSON answer (see migrate-wasm), its result styled by migrate.css. Until the
 * converter module is here, `onProgress(received, total)` hears how far its download is. */
export function convert(text, release, onProgress) {
  // The worker's own script loads while the module downloads.
  if (worker === undefined) startWorker();
  return converterModule(onProgress)
    .then((module) => {
      if (!worker) return convertOnPage(text, release);
      return new Promise((resolve, reject) => {
        waiting?.resolve(SUPERSEDED);
        waiting = { id: nextId++, text, release, module, resolve, reject };
        next();
      });
    })
    .then(styled);
}

// Migrate mode's output (crates/html/src/migrate_output.rs): one block per object, each with a Copy button
// (`button[data-copy]`) that copies its own figure's code. The widget places that HTML in its
// shadow root; the click reaches here through the shadow boundary (composedPath), so the
// widget's wasm carries none of this.
document.addEventListener('click', async (event) => {
  const button = event.composedPath().find((el) => el instanceof Element && el.matches('button[data-copy]'));
  const pre = button?.closest('figure')?.querySelector('pre');
  if (!pre) return;
  const ok = await copy(pre.textContent.replace(/\n$/, ''), pre);
  button.textContent = ok ? 'Copied' : 'Select and copy';
  const status = button.closest('.objects')?.querySelector('[role="status"]');
  if (status) status.textContent = ok ? `Copied ${button.getAttribute('aria-label').replace(/^Copy /, '')}` : 'Copy failed: select the code and press Ctrl+C';
});
