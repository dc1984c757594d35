// "What Kubernetes runs" in the built site (make dist), in headless Chromium: opening it loads its
// own module (crates/explain-wasm), which fills in the pods, the environment and the objects the Trainer
// controller creates for the reader's selection; it follows the parameters, the framework and
// the release while open. Screenshots (desktop, phone, dark) go to target/e2e-k8s-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, assertShownWell, launch, MAIN_WIDGET, openPane } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const WIDGET = MAIN_WIDGET;

const open = (context, query) => openPane(context, query, 'k8s-pane');

/** What the pane shows once its answer for the current selection is in: the env values (the
 * trainer `node` container's table comes first), the pods per replicatedJob, the objects. */
async function pane(page, until) {
  await page.waitForFunction(
    ([sel, until]) => {
      const body = document.querySelector(sel)?.shadowRoot?.querySelector('.k8s-pane .pane-body');
      return body && new Function('body', `return ${until}`)(body);
    },
    [WIDGET, until],
    { timeout: 15000 },
  );
  return page.evaluate((sel) => {
    const body = document.querySelector(sel).shadowRoot.querySelector('.k8s-pane .pane-body');
    const env = {};
    for (const tr of body.querySelectorAll('tr[data-env]')) env[tr.dataset.env] ??= tr.dataset.value;
    const pods = Object.fromEntries([...body.querySelectorAll('li[data-rjob]')].map((li) => [li.dataset.rjob, +li.dataset.count]));
    const objects = [...body.querySelectorAll('li[data-kind]')].map((li) => li.textContent);
    const trainer = body.querySelector('.k8s')?.dataset.trainer;
    return { env, pods, objects, trainer, text: body.textContent, hostfile: body.querySelector('.k8s-hostfile')?.textContent };
  }, WIDGET);
}

test('the env and pods follow the selection: nodes, GPUs, framework and release', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(context, 'framework=pytorch&nodes=3&gpus=2');
  let view = await pane(page, `body.querySelector('tr[data-env="PET_NNODES"]')`);
  // The newest release by default: the tag the release control says it serves (not a literal,
  // so a new release entry does not break this test).
  const served = await page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const g = root.querySelector('[role="radiogroup"].release');
    return root.getElementById(g.getAttribute('aria-describedby')).textContent.trim().split(',')[0];
  }, WIDGET);
  assert.match(served, /^v2\.\d+\.\d+$/);
  assert.equal(view.trainer, served);
  assert.equal(view.env.PET_NNODES, '3');
  assert.equal(view.env.PET_NPROC_PER_NODE, 'auto'); // GPUs: torchrun starts one process per GPU
  assert.equal(view.env.PET_MASTER_ADDR, 'pytorch-ddp-node-0-0.pytorch-ddp');
  assert.deepEqual(view.pods, { node: 3 });
  assert.ok(view.text.includes('2 GPUs each'), view.text);
  assert.ok(view.objects.some((o) => o.startsWith('ConfigMap pytorch-ddp-runtime-snapshot')), view.objects.join('\n'));
  await page.screenshot({ path: 'target/e2e-k8s-desktop.png', fullPage: false });

  // Typing a new node count re-renders the open pane.
  const nodes = page.locator(`${WIDGET} #p-nodes`);
  await nodes.fill('5');
  view = await pane(page, `body.querySelector('tr[data-env="PET_NNODES"]')?.dataset.value === '5'`);
  assert.deepEqual(view.pods, { node: 5 });

  // DeepSpeed: MPI, the launcher runs as one of the 5 nodes; one slot per GPU.
  await page.locator(`${WIDGET} .framework [data-value="deepspeed"]`).click();
  view = await pane(page, `body.querySelector('.k8s-hostfile')`);
  assert.deepEqual(view.pods, { node: 4, launcher: 1 });
  assert.equal(view.env.OMPI_MCA_orte_set_default_slots, '2');
  assert.equal(view.hostfile.trim().split('\n').length, 5);
  assert.deepEqual(errors, []);
  await context.close();
});

test('an older release: its own rules, and a framework it lacks is its rejection', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(context, 'release=v2.0&framework=pytorch&nodes=2&gpus=4');
  const view = await pane(page, `body.querySelector('tr[data-env="PET_NNODES"]')`);
  assert.equal(view.trainer, 'v2.0.1');
  // v2.0.1 torch.go:126-157: a GPU limit without requests gives 1 process per node.
  assert.equal(view.env.PET_NPROC_PER_NODE, '1');
  assert.ok(!view.objects.some((o) => o.includes('runtime-snapshot')), view.objects.join('\n'));
  await page.locator(`${WIDGET} .framework [data-value="jax"]`).click();
  const refused = await pane(page, `body.querySelector('.k8s-rejected')`);
  assert.ok(refused.text.includes('Trainer v2.0.1 refuses this TrainJob'), refused.text);
  assert.ok(refused.text.includes('"jax-distributed" not found'), refused.text);
  assert.deepEqual(refused.pods, {});
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone and dark (screenshots): the open pane passes axe and the page does not scroll sideways', async () => {
  for (const [name, options] of [
    ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ]) {
    const context = await browser.newContext(options);
    const { page, errors } = await open(context, 'framework=deepspeed&nodes=3&gpus=2');
    await pane(page, `body.querySelector('.k8s-hostfile')`);
    await page.locator(`${WIDGET} .k8s-pane summary`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `target/e2e-k8s-${name}.png`, fullPage: false });
    await assertShownWell(page, WIDGET);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('opening "What Kubernetes runs" downloads its own small module, not the converter', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const { page, errors } = await open(context, 'framework=pytorch');
  await pane(page, `body.querySelector('tr[data-env="PET_NNODES"]')`);
  const wasm = fetched.filter((p) => p.endsWith('.wasm')).map((p) => p.split('/').pop());
  assert.ok(wasm.includes('trainer_v2_explain_bg.wasm'), wasm.join(', '));
  // The converter (its YAML parser and migration) is for migrate mode.
  assert.ok(!wasm.includes('trainer_v2_migrate_bg.wasm'), `the pane downloaded ${wasm.join(', ')}`);
  // And it is the smaller download (no YAML parser or migration in it).
  const bytes = async (name) => (await (await fetch(new URL(`pkg-migrate/${name}`, BASE))).arrayBuffer()).byteLength;
  const [own, converter] = [await bytes('trainer_v2_explain_bg.wasm'), await bytes('trainer_v2_migrate_bg.wasm')];
  assert.ok(own < converter, `explain module ${own} B, converter ${converter} B`);
  assert.deepEqual(errors, []);
  await context.close();
});
