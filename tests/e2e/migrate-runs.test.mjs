// "What Kubernetes runs" in migrate mode, in the built site (make dist), in headless Chromium: a
// reader pastes a real V1 job and, under the objects to apply, opens one collapsed section per
// converted TrainJob, named by it, showing the JobSet, its pods and their environment on the
// runtime the TrainJob references. The facts checked are worked out here from the pasted file
// and Trainer's controller code, not read from our own output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, launch, MAIN_WIDGET, scrollAsReader, nodeModule } from './helpers.mjs';

const YAML = nodeModule('yaml');
const REAL_V1 = process.env.TRAINER_REAL_V1 ?? '../shared/real-v1';
// aws-samples/aws-do-eks' MNIST PyTorchJob: Master 1 and Worker 2 (the file names its source).
const MNIST = readFileSync(join(REAL_V1, '08-awsdoeks-mnist-master-worker.yaml'), 'utf8');
// CoreWeave's ImageNet PyTorchJob, a second job for the several-documents case.
const IMAGENET = readFileSync(join(REAL_V1, '14-coreweave-imagenet-pytorchjob.yaml'), 'utf8');

/** What Trainer runs for a PyTorchJob, from the V1 file alone: V2's torch runtime runs every
 * role as one `node` replicatedJob, so Master 1 + Worker N are N + 1 nodes. */
function expected(text) {
  const job = YAML.parse(text);
  const name = job.metadata.name;
  const roles = Object.values(job.spec.pytorchReplicaSpecs);
  const nodes = roles.reduce((n, role) => n + (role.replicas ?? 1), 0);
  // The GPUs each node asks for: the Worker's, which every node gets (one pod template).
  const worker = job.spec.pytorchReplicaSpecs.Worker.template.spec.containers[0];
  const gpus = worker.resources?.limits?.['nvidia.com/gpu'];
  return {
    name,
    nodes,
    gpus: gpus === undefined ? '' : `; ${gpus} GPU${gpus === 1 ? '' : 's'} each (nvidia.com/gpu)`,
    // Each pod is reached as <jobset>-<replicatedJob>-<job index>-<pod index>.<subdomain>, the
    // JobSet and its subdomain named after the TrainJob
    // (trainer v2.3.0:pkg/runtime/framework/plugins/jobset/jobset.go:281,291).
    hostnames: Array.from({ length: nodes }, (_, i) => `${name}-node-0-${i}.${name}`),
    env: {
      // torch.go:146-148 @v2.3.0: the trainer pod set's count.
      PET_NNODES: String(nodes),
      // torch.go:161-162 @v2.3.0: the first node's pod, under the JobSet's subdomain.
      PET_MASTER_ADDR: `${name}-node-0-0.${name}`,
    },
  };
}

let browser;
before(async () => (browser = await launch()));
after(() => browser?.close());

/** The TrainJobs `text` converts to, in order: a V1 job's conversion keeps its name. */
const jobNames = (text) => YAML.parseAllDocuments(text).map((d) => d.toJS().metadata.name);

/** Waits until migrate mode shows one section for each TrainJob of `text`, in order. Migrate mode
 * opens on a sample job that has a section of its own, so a count alone would not tell them apart. */
async function sectionsFor(page, text) {
  const names = jobNames(text);
  await page
    .waitForFunction(
      ([w, names]) => {
        const seen = [...document.querySelector(w).shadowRoot.querySelectorAll('.migrate-result details.k8s-runs')].map((d) => d.dataset.trainjob);
        return JSON.stringify(seen) === JSON.stringify(names);
      },
      [MAIN_WIDGET, names],
      { timeout: 20000 },
    )
    .catch(async () => {
      const seen = await page.evaluate((w) => [...document.querySelector(w).shadowRoot.querySelectorAll('.migrate-result details > summary')].map((s) => s.innerText), MAIN_WIDGET);
      throw new Error(`no "What Kubernetes runs" sections for ${JSON.stringify(names)} in the migrate output; its disclosures: ${JSON.stringify(seen)}`);
    });
}

/** Opens migrate mode at `viewport`, pastes `text` and waits for its sections. */
async function paste(text, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  await scrollAsReader(page, MAIN_WIDGET);
  await page.locator(`${MAIN_WIDGET} #m-input`).fill(text);
  await sectionsFor(page, text);
  return { context, page, errors };
}

/** Opens the section for TrainJob `name` from the keyboard and reads it as a reader would copy it. */
async function openSection(page, name) {
  const section = page.locator(`${MAIN_WIDGET} details.k8s-runs[data-trainjob="${name}"]`);
  assert.equal(await section.getAttribute('open'), null, 'the section starts collapsed');
  const summary = section.locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    ([w, n]) => {
      const body = document.querySelector(w).shadowRoot.querySelector(`details.k8s-runs[data-trainjob="${n}"] .k8s`);
      // Its stylesheet applies once explain.css has loaded (the pods list's indent).
      return body && body.checkVisibility() && getComputedStyle(body.querySelector('ul')).paddingLeft === '20px';
    },
    [MAIN_WIDGET, name],
    { timeout: 10000 },
  );
  return page.evaluate(
    ([w, n]) => {
      const root = document.querySelector(w).shadowRoot;
      const section = root.querySelector(`details.k8s-runs[data-trainjob="${n}"]`);
      const env = {};
      for (const row of section.querySelectorAll('.k8s-env tbody tr')) {
        const [k, v] = [...row.cells].map((c) => c.innerText.trim());
        env[k] = v;
      }
      return {
        summary: section.querySelector('summary').innerText,
        text: section.innerText,
        pods: [...section.querySelectorAll('.k8s-pods > li')].map((li) => li.innerText),
        env,
        headings: section.querySelectorAll('h1, h2, h3, h4, h5, h6').length,
        overflow: section.scrollWidth - section.clientWidth,
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        focused: root.activeElement === section.querySelector('summary'),
      };
    },
    [MAIN_WIDGET, name],
  );
}

const literally = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function assertRuns(seen, want) {
  assert.equal(seen.summary, `What Kubernetes runs for TrainJob ${want.name}`);
  assert.ok(seen.focused, 'the summary is focusable and focused');
  assert.equal(seen.headings, 0, 'no <h1>-<h6> for a host page table of contents to pick up');
  assert.match(seen.text, new RegExp(`creates the JobSet ${literally(want.name)}\\.`));
  assert.match(seen.text, /The runtime: the ClusterTrainingRuntime "torch-distributed" as Trainer v\d+\.\d+\.\d+ installs it\./);
  assert.equal(seen.pods.length, 1, seen.pods.join('\n'));
  assert.match(seen.pods[0], new RegExp(`^node × ${want.nodes} pods${literally(want.gpus)}; rank 0, ${literally(want.hostnames[0])}, is the coordinator`));
  assert.ok(seen.pods[0].includes(`hostnames ${want.hostnames.join(', ')}`), seen.pods[0]);
  for (const [k, v] of Object.entries(want.env)) assert.equal(seen.env[k], v, `${k} in ${JSON.stringify(seen.env)}`);
  // Each pod's rank, from its completion index: 0 … N-1.
  assert.match(seen.env.PET_NODE_RANK, new RegExp(`^0 … ${want.nodes - 1}: each pod's completion index`));
}

test('a real PyTorchJob (Master 1 + Worker 2) shows what Kubernetes runs for its TrainJob: 3 nodes, their names and env', async () => {
  const want = expected(MNIST);
  assert.equal(want.nodes, 3);
  const { page, errors } = await paste(MNIST);
  const seen = await openSection(page, want.name);
  assertRuns(seen, want);
  assert.ok(seen.pageOverflow <= 0, `the page scrolls ${seen.pageOverflow}px sideways`);
  assert.deepEqual(errors, []);
});

test('several documents: one section per converted TrainJob, named by the job, in the order pasted', async () => {
  const jobs = [expected(MNIST), expected(IMAGENET)];
  const { page, errors } = await paste(`${MNIST}\n---\n${IMAGENET}`);
  const names = await page.evaluate((w) => [...document.querySelector(w).shadowRoot.querySelectorAll('details.k8s-runs')].map((d) => d.dataset.trainjob), MAIN_WIDGET);
  assert.deepEqual(names, jobs.map((j) => j.name));
  for (const want of jobs) assertRuns(await openSection(page, want.name), want);
  assert.deepEqual(errors, []);
});

test('on a 390 px phone in dark mode the open section fits the screen', async () => {
  const want = expected(MNIST);
  const { page, errors } = await paste(MNIST, { viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true, hasTouch: true });
  const seen = await openSection(page, want.name);
  assertRuns(seen, want);
  assert.ok(seen.overflow <= 0, `the section is ${seen.overflow}px wider than its box`);
  assert.ok(seen.pageOverflow <= 0, `the page scrolls ${seen.pageOverflow}px sideways`);
  // Dark: the widget's dark theme, and the section's text is light on it.
  const colors = await page.evaluate((w) => {
    const root = document.querySelector(w).shadowRoot;
    const text = root.querySelector('details.k8s-runs .k8s-head');
    return { dark: root.querySelector('.tv2x').classList.contains('dark'), color: getComputedStyle(text).color };
  }, MAIN_WIDGET);
  assert.ok(colors.dark, 'the widget is in its dark theme');
  const [r, g, b] = colors.color.match(/\d+/g).map(Number);
  assert.ok(r + g + b > 3 * 160, `the section's text is ${colors.color} on a dark background`);
  assert.deepEqual(errors, []);
});

test('the section comes back with the pasted job after the view switches to Compare and back', async () => {
  const want = expected(MNIST);
  const { page, errors } = await paste(MNIST);
  await page.locator(`${MAIN_WIDGET} .mode [data-value="compare"]`).click();
  await page.locator(`${MAIN_WIDGET} .pane.v2`).waitFor();
  await page.locator(`${MAIN_WIDGET} .mode [data-value="migrate"]`).click();
  assert.equal(await page.locator(`${MAIN_WIDGET} #m-input`).inputValue(), MNIST);
  await sectionsFor(page, MNIST);
  assertRuns(await openSection(page, want.name), want);
  assert.deepEqual(errors, []);
});
