// Runs the V1 → V2 converter off the page's main thread, so a large paste never freezes the
// page while it converts. converter.js starts it the first time migrate mode converts.
import init, { migrate } from './trainer_v2_migrate.js';

const ready = init();

self.onmessage = async ({ data: { id, text, release } }) => {
  try {
    await ready;
    self.postMessage({ id, answer: migrate(text, release) });
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
};
