// "What Kubernetes runs", linked to its YAML, in the built site (make dist) in headless Chromium:
// - in the widget's pane, hovering, clicking or focusing an item (keyboard too) highlights the
//   TrainJob or runtime line it comes from, and only that, without moving the page;
// - the post's presets (JobSet, MPI, initializers) read in full with JavaScript off: their text is
//   the core's, each item's tooltip names its line, and that line holds the field;
// - with JavaScript, the presets highlight too.
// Screenshots go to target/e2e-links-*.png (desktop, 375 px phone, dark).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, MAIN_WIDGET, nodeModule, openPane } from './helpers.mjs';

const YAML = nodeModule('yaml');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const PHONE = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** The highlighted lines under `root` (a shadow root or the document), as "TrainJob: text". */
function highlighted(page, host) {
  return page.evaluate((host) => {
    const root = host ? document.querySelector(host).shadowRoot : document;
    return [...root.querySelectorAll('.k8s-yaml .ln.hl')].map(
      (ln) => `${ln.closest('figure').querySelector('figcaption').textContent}: ${ln.textContent.trim()}`,
    );
  }, host);
}

async function widgetPane(context, query) {
  const { page, errors } = await openPane(context, query, 'k8s-pane');
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.shadowRoot?.querySelector('.k8s-pane .k8s-linked [data-src]'),
    MAIN_WIDGET,
    { timeout: 15000 },
  );
  return { page, errors, item: (css) => page.locator(`${MAIN_WIDGET} .k8s-pane ${css}`) };
}

test('in the widget, an item highlights the line it comes from: hover, click, keyboard', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors, item } = await widgetPane(context, 'framework=deepspeed&nodes=4&gpus=2');
  // The hint shows only where the highlighting works.
  assert.equal(await item('.k8s-hint').isVisible(), true);

  await item('tr[data-env="OMPI_MCA_orte_set_default_slots"]').hover();
  // One slot per GPU: the TrainJob's GPU line, nothing else.
  assert.deepEqual(await highlighted(page, MAIN_WIDGET), ['TrainJob: nvidia.com/gpu: 2']);

  // Playwright's click first scrolls its target into view; bring it there before measuring, so
  // that any scroll measured below comes from the highlighting.
  await item('li[data-rjob="node"]').scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  await item('li[data-rjob="node"]').click();
  // runLauncherAsNode: 3 node pods for numNodes 4; the runtime's `node` job; its GPUs.
  assert.deepEqual(await highlighted(page, MAIN_WIDGET), [
    'TrainJob: numNodes: 4',
    'TrainJob: nvidia.com/gpu: 2',
    'Runtime: - name: node',
  ]);
  assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'highlighting does not move the page');
  await item('li[data-rjob="node"]').scrollIntoViewIfNeeded();
  // The YAML sits beside the items, and the highlighted line shows in the viewport.
  const layout = await page.evaluate((sel) => {
    const pane = document.querySelector(sel).shadowRoot.querySelector('.k8s-pane');
    const rect = (css) => pane.querySelector(css).getBoundingClientRect();
    const [items, yaml, line] = [rect('.k8s-items'), rect('.k8s-yaml'), rect('.k8s-yaml .ln.hl')];
    return { beside: yaml.left >= items.right, lineShown: line.top >= Math.max(0, yaml.top) && line.bottom <= Math.min(innerHeight, yaml.bottom) };
  }, MAIN_WIDGET);
  assert.deepEqual(layout, { beside: true, lineShown: true });
  await page.screenshot({ path: 'target/e2e-links-widget-desktop.png' });

  // Keyboard: focus the snapshot ConfigMap, Tab to the JobSet.
  await item('li[data-kind="ConfigMap"]').first().focus();
  assert.deepEqual(await highlighted(page, MAIN_WIDGET), ['TrainJob: name: deepspeed-distributed']);
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(
    (sel) => document.querySelector(sel).shadowRoot.activeElement?.dataset.kind,
    MAIN_WIDGET,
  );
  assert.equal(focused, 'JobSet');
  assert.deepEqual(await highlighted(page, MAIN_WIDGET), ['TrainJob: name: deepspeed-train']);
  // Screen readers hear which line it is.
  const live = await item('.k8s-live').textContent();
  assert.equal(live, 'TrainJob line 5: name: deepspeed-train');

  // A new selection re-renders the pane, still linked.
  await page.locator(`${MAIN_WIDGET} .framework [data-value="pytorch"]`).click();
  await page.waitForFunction(
    (sel) => document.querySelector(sel).shadowRoot.querySelector('.k8s-pane tr[data-env="PET_NNODES"][data-src]'),
    MAIN_WIDGET,
    { timeout: 15000 },
  );
  await item('tr[data-env="PET_NNODES"]').hover();
  assert.deepEqual(await highlighted(page, MAIN_WIDGET), ['TrainJob: numNodes: 4']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('widget highlighting: phone and dark screenshots', async () => {
  for (const [name, options] of [
    ['phone', PHONE],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ]) {
    const context = await browser.newContext(options);
    const { page, errors, item } = await widgetPane(context, 'framework=deepspeed&nodes=4&gpus=2');
    const node = item('li[data-rjob="node"]');
    await node.scrollIntoViewIfNeeded();
    if (name === 'phone') await node.tap();
    else await node.click();
    assert.deepEqual((await highlighted(page, MAIN_WIDGET))[0], 'TrainJob: numNodes: 4');
    await page.screenshot({ path: `target/e2e-links-widget-${name}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

/** The post's presets as a reader without JavaScript gets them. */
function presets(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('figure.k8s-preset')].map((f) => ({
      query: f.dataset.query,
      caption: f.querySelector('figcaption').textContent,
      text: f.querySelector('.k8s-items').innerText,
      hintShown: !f.querySelector('.k8s-hint').hidden,
      // Each variable's first row: the first replicatedJob's.
      env: [...f.querySelectorAll('tr[data-env]')].reduce((env, tr) => ({ [tr.dataset.env]: tr.dataset.value, ...env }), {}),
      pods: Object.fromEntries([...f.querySelectorAll('li[data-rjob]')].map((li) => [li.dataset.rjob, +li.dataset.count])),
      hostfile: f.querySelector('.k8s-hostfile')?.textContent,
      objects: [...f.querySelectorAll('li[data-kind]')].map((li) => li.textContent),
      yaml: Object.fromEntries([...f.querySelectorAll('.k8s-yaml figure')].map((fig) => [fig.dataset.doc, fig.querySelector('pre').innerText])),
      items: [...f.querySelectorAll('[data-src]')].map((el) => ({ src: el.dataset.src, title: el.title, text: el.textContent })),
    })),
  );
}

test('the post presets read in full without JavaScript, and name their lines', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(BASE);
  const all = await presets(page);
  assert.deepEqual(
    all.map((p) => p.query),
    ['framework=torchtune', 'framework=pytorch&nodes=3&gpus=2', 'framework=deepspeed&nodes=4&gpus=2'],
  );
  // In the post's order: initializers (LLM fine-tuning), JobSet, MPI.
  const [init, jobset, mpi] = all;

  // JobSet: one replicated Job, three pods with their hostnames, torchrun's environment.
  assert.deepEqual(jobset.pods, { node: 3 });
  assert.equal(jobset.env.PET_NNODES, '3');
  assert.equal(jobset.env.PET_NPROC_PER_NODE, 'auto');
  assert.equal(jobset.env.PET_MASTER_ADDR, 'pytorch-ddp-node-0-0.pytorch-ddp');
  for (const i of [0, 1, 2]) assert.ok(jobset.text.includes(`pytorch-ddp-node-0-${i}.pytorch-ddp`), jobset.text);
  assert.ok(jobset.text.includes('replicas 1, parallelism and completions 3'), jobset.text);

  // MPI: launcher and 3 nodes, one slot per GPU, the Secret and the hostfile's ConfigMap.
  assert.deepEqual(mpi.pods, { node: 3, launcher: 1 });
  assert.deepEqual(mpi.hostfile.trim().split('\n'), [
    'deepspeed-train-node-0-0.deepspeed-train slots=2',
    'deepspeed-train-node-0-1.deepspeed-train slots=2',
    'deepspeed-train-node-0-2.deepspeed-train slots=2',
    'deepspeed-train-launcher-0-0.deepspeed-train slots=2',
  ]);
  assert.ok(mpi.objects.some((o) => o.startsWith('Secret deepspeed-train-mpi-ssh-auth')), mpi.objects.join('\n'));
  assert.ok(mpi.objects.some((o) => o.startsWith('ConfigMap deepspeed-train-mpi-hostfile')), mpi.objects.join('\n'));

  // Initializers: STORAGE_URI from the TrainJob, the shared volume, the node waits for both.
  assert.deepEqual(init.pods, { 'dataset-initializer': 1, 'model-initializer': 1, node: 1 });
  assert.equal(init.env.STORAGE_URI, 'hf://tatsu-lab/alpaca/data');
  assert.ok(init.text.includes('STORAGE_URI\thf://meta-llama/Llama-3.2-1B-Instruct'), init.text);
  assert.ok(init.text.includes('starts when dataset-initializer is Complete, starts when model-initializer is Complete'), init.text);
  assert.equal(init.text.match(/mounts initializer at \/workspace/g)?.length, 3, init.text);
  assert.ok(init.objects.some((o) => o.startsWith('PersistentVolumeClaim initializer')), init.objects.join('\n'));

  for (const p of all) {
    // Without JavaScript nothing highlights, so the hint that says so stays hidden.
    assert.equal(p.hintShown, false, p.query);
    // The YAML beside the items parses; each item's tooltip names its lines, and they hold a field.
    const docs = { t: p.yaml.t.split('\n'), r: p.yaml.r.split('\n') };
    assert.equal(YAML.parse(p.yaml.t).kind, 'TrainJob');
    assert.match(YAML.parse(p.yaml.r).kind, /TrainingRuntime$/);
    assert.ok(p.items.length > 5, p.query);
    for (const { src, title } of p.items) {
      const refs = src.split(' ');
      assert.equal(title, `From ${refs.map((r) => `${r[0] === 't' ? 'TrainJob' : 'runtime'} line ${r.slice(2)}`).join(', ')}`);
      for (const r of refs) assert.match(docs[r[0]][Number(r.slice(2)) - 1], /^\s*(- )?[\w./-]+:/, `${p.query} ${r}`);
    }
  }
  await context.close();
});

test('the post presets highlight with JavaScript; screenshots desktop, phone, dark', async () => {
  for (const [name, options] of [
    ['desktop', { viewport: { width: 1280, height: 900 } }],
    ['phone', PHONE],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ]) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL('#mpi', BASE).href);
    const preset = page.locator('figure.k8s-preset[data-query^="framework=deepspeed"]');
    await preset.locator('.k8s-hint').waitFor({ state: 'visible', timeout: 15000 });
    const hostfile = preset.locator('.k8s-hostfile');
    await hostfile.scrollIntoViewIfNeeded();
    if (name === 'phone') await hostfile.tap();
    else await hostfile.hover();
    // The hostfile: the MPI policy, numNodes and the GPUs that make the slots.
    assert.deepEqual(await highlighted(page), ['TrainJob: numNodes: 4', 'TrainJob: nvidia.com/gpu: 2', 'Runtime: mpi:']);
    await page.screenshot({ path: `target/e2e-links-post-${name}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
