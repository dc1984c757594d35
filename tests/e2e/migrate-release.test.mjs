// Migrate mode follows the reader's Trainer release (Selection.release: `?release=v2.1`, or a
// mount point's data-release): the converter in the worker writes for that release, and the
// output's title names its tag. Read as a reader copies it: the code block's text, parsed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, nodeModule, waitForConvertedTrainJob } from './helpers.mjs';

const YAML = nodeModule('yaml');
const WIDGET = '[data-trainer-v2-explorer]:not([data-compact])';
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

/** A Master + Worker PyTorchJob (one template for both) with pod settings every release's
 * TrainJob can hold. It sets its command: without one, v2.0 needs a generated runtime (its
 * built-in runs a placeholder script; crates/core/tests/it/migrate_targets.rs). */
const TEMPLATE = `      template:
        spec:
          nodeSelector: {pool: a100}
          containers: [{name: pytorch, image: "registry.example.com/resnet:1", command: [torchrun, train.py], volumeMounts: [{name: data, mountPath: /data}]}]
          volumes: [{name: data, persistentVolumeClaim: {claimName: imagenet}}]
`;
const JOB = `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: resnet}
spec:
  runPolicy: {activeDeadlineSeconds: 7200}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
${TEMPLATE}    Worker:
      replicas: 3
${TEMPLATE}`;

async function openMigrate(query) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(`${query}#user-experience`, BASE).href);
  await waitForConvertedTrainJob(page);
  return { page, context, errors };
}

/** Pastes `text` and waits until the result shows `marker`. */
async function paste(page, text, marker) {
  await page.locator(`${WIDGET} #m-input`).fill(text);
  await page.waitForFunction(
    ([sel, marker]) => document.querySelector(sel)?.shadowRoot?.querySelector('.migrate-result')?.textContent.includes(marker),
    [WIDGET, marker],
    { timeout: 15000 },
  );
}

/** What the output says it was written for, and its objects' YAML (one block per object), as
 * the reader sees and copies them. */
const output = (page) =>
  page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const blocks = [...root.querySelectorAll('.migrate-result .objects figure.obj pre')];
    return {
      title: root.querySelector('.migrate-result .apply-intro')?.textContent.match(/Trainer v\d+\.\d+\.\d+/)?.[0],
      yaml: blocks.map((pre) => pre.innerText).join('---\n'),
      report: root.querySelector('.migrate-result').textContent,
    };
  }, WIDGET);

const trainJob = (yaml) => YAML.parseAllDocuments(yaml).map((d) => d.toJS()).find((o) => o.kind === 'TrainJob');

test('with release=v2.1, migrate mode writes podTemplateOverrides and names v2.1.0', async () => {
  const { page, context, errors } = await openMigrate('?release=v2.1&mode=migrate');
  await paste(page, JOB, 'podTemplateOverrides');
  const { title, yaml, report } = await output(page);
  assert.equal(title, 'Trainer v2.1.0');
  const spec = trainJob(yaml).spec;
  assert.deepEqual(spec.podTemplateOverrides[0].targetJobs, [{ name: 'node' }]);
  assert.deepEqual(spec.podTemplateOverrides[0].spec.nodeSelector, { pool: 'a100' });
  assert.equal(spec.podTemplateOverrides[0].spec.containers[0].volumeMounts[0].mountPath, '/data');
  assert.equal(spec.runtimePatches, undefined);
  assert.equal(spec.activeDeadlineSeconds, undefined, 'v2.1 has no activeDeadlineSeconds');
  assert.ok(report.includes('a TrainJob has no activeDeadlineSeconds in v2.1.0'), report);
  // No JAX runtime in v2.1: refused, with the release that has one.
  await paste(page, 'apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: j}\nspec:\n  jaxReplicaSpecs:\n    Worker:\n      template: {spec: {containers: [{name: jax, image: "a:1"}]}}\n', 'refused');
  assert.ok((await output(page)).report.includes('Trainer v2.1.0 has no JAX runtime'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the input label names every V1 kind the converter reads, TFJob and PaddleJob included', async () => {
  const { page, context, errors } = await openMigrate('?mode=migrate');
  const label = await page.locator(`${WIDGET} label[for="m-input"]`).textContent();
  for (const kind of ['PyTorchJob', 'MPIJob', 'JAXJob', 'XGBoostJob', 'TFJob', 'PaddleJob']) {
    assert.ok(label.includes(kind), `${kind} missing from the label: ${label}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('without a release, migrate mode writes for the newest: runtimePatches and its tag', async () => {
  const { page, context, errors } = await openMigrate('?mode=migrate');
  await paste(page, JOB, 'runtimePatches');
  const { title, yaml } = await output(page);
  assert.match(title, /^Trainer v2\.3\.\d+$/);
  const spec = trainJob(yaml).spec;
  assert.equal(spec.podTemplateOverrides, undefined);
  assert.equal(spec.activeDeadlineSeconds, 7200);
  const job = spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0];
  assert.deepEqual(job.template.spec.template.spec.nodeSelector, { pool: 'a100' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('data-release on the mount point sets the release migrate mode writes for', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // The attribute is set before the loader reads the mount point, as a host page would write it.
  await page.addInitScript((sel) => {
    document.addEventListener('DOMContentLoaded', () => document.querySelector(sel)?.setAttribute('data-release', 'v2.0'));
  }, WIDGET);
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  await waitForConvertedTrainJob(page);
  await paste(page, JOB, 'podSpecOverrides');
  const { title, yaml } = await output(page);
  assert.equal(title, 'Trainer v2.0.1');
  const override = trainJob(yaml).spec.podSpecOverrides[0];
  assert.deepEqual(override.targetJobs, [{ name: 'node' }]);
  assert.deepEqual(override.nodeSelector, { pool: 'a100' });
  await context.close();
});
