// The platform engineer's fields in the built site (make dist), in headless Chromium: a reader
// who types an image, a node count and GPUs per node for the PyTorch runtime gets a runtime that
// runs that image on its nodes, with that numNodes default and that GPU limit, as the reader
// copies it; the note above the fields no longer says they leave the runtime alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, MAIN_WIDGET, openWidget } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const IMAGE = 'registry.example.com/team/train:1';

/** The V2 pane's runtime YAML and the note above the fields, with what each field cites. */
const seen = (page) =>
  page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const described = (id) => root.querySelector(`#${id}`)?.getAttribute('aria-describedby') ?? '';
    return {
      code: root.querySelector('.pane.v2 pre code')?.textContent ?? '',
      note: root.querySelector('#p-note')?.textContent ?? '',
      noted: ['p-image', 'p-nodes', 'p-gpus', 'p-queue'].filter((id) => described(id).includes('p-note')),
    };
  }, MAIN_WIDGET);

test("the platform engineer's image, nodes and GPUs shape the runtime they copy", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await openWidget(context, 'persona=platform-engineer&framework=pytorch');
  let view = await seen(page);
  assert.ok(!view.code.includes(IMAGE), view.code);
  for (const [id, value] of [['#p-image', IMAGE], ['#p-nodes', '4'], ['#p-gpus', '3']]) {
    await page.locator(`${MAIN_WIDGET} ${id}`).fill(value);
  }
  // All three fields' values, not the first one's alone: each fill renders at the scheduler's
  // next turn, so a render between two fills showed the image before the nodes and GPUs.
  await page.waitForFunction(
    ([sel, image]) => {
      const code = document.querySelector(sel).shadowRoot.querySelector('.pane.v2 pre code')?.textContent ?? '';
      return code.includes(image) && /^ {4}numNodes: 4$/m.test(code) && /^ +nvidia\.com\/gpu: 3$/m.test(code);
    },
    [MAIN_WIDGET, IMAGE],
    { timeout: 5000 },
  );
  view = await seen(page);
  assert.match(view.code, /^kind: ClusterTrainingRuntime$/m);
  assert.match(view.code, /^ {4}numNodes: 4$/m, view.code);
  assert.match(view.code, new RegExp(`^ +image: ${IMAGE.replace(/[.]/g, '\\.')}$`, 'm'), view.code);
  assert.match(view.code, /^ +nvidia\.com\/gpu: 3$/m, view.code);
  assert.match(view.code, /built-in with your Nodes, GPUs per node and Image/, view.code);
  assert.ok(!view.code.includes('webhook-validation'), 'a runtime that is not the shipped one keeps webhook validation');
  // The note speaks only of the fields that do not reach the runtime.
  assert.deepEqual(view.noted, ['p-queue'], view.note);
  assert.ok(!/Every field below shapes/.test(view.note), view.note);
  assert.deepEqual(errors, []);
  await context.close();
});
