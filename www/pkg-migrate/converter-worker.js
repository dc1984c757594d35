// Runs the V1 → V2 converter off the page's main thread, so a large paste never freezes the
// page while it converts. converter.js starts it the first time migrate mode converts.
// Each text comes with the converter module, compiled once by the page (converter.js), so a
// worker downloads nothing but this script and the module's small JS glue.
import init, { migrate } from './trainer_v2_migrate.js';

let ready;

self.onmessage = async ({ data: { id, text, release, module } }) => {
  try {
    ready ??= init({ module_or_path: module });
    await ready;
    self.postMessage({ id, answer: migrate(text, release) });
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
};
