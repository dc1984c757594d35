// The V1 → V2 converter for migrate mode, loaded by explorer.js the first time it is needed.
// It ships in pkg-migrate/ next to the converter module (make dist copies it there).
// It runs in a worker, so converting a large paste never blocks the page; where a worker cannot
// start (an old browser, a policy that forbids it), it runs on the page instead.
const here = (path) => new URL(path, import.meta.url).href;
let worker;
let onPage;
let nextId = 0;
const pending = new Map();

function convertOnPage(text) {
  onPage ??= import(here('./trainer_v2_migrate.js')).then(async (m) => {
    await m.default();
    return m;
  });
  return onPage.then((m) => m.migrate(text));
}

function startWorker() {
  try {
    worker = new Worker(here('./converter-worker.js'), { type: 'module' });
  } catch {
    worker = null;
    return;
  }
  worker.onmessage = ({ data }) => {
    const job = pending.get(data.id);
    pending.delete(data.id);
    if (!job) return;
    if ('error' in data) job.reject(new Error(data.error));
    else job.resolve(data.answer);
  };
  // The worker script itself did not load: hand what is waiting to the page.
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    worker = null;
    for (const [id, job] of pending) {
      pending.delete(id);
      convertOnPage(job.text).then(job.resolve, job.reject);
    }
  };
}

/** Converts V1 YAML; resolves to the converter's JSON answer (see migrate-wasm). */
export function convert(text) {
  if (worker === undefined) startWorker();
  if (!worker) return convertOnPage(text);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { text, resolve, reject });
    worker.postMessage({ id, text });
  });
}
