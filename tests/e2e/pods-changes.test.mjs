// "What changes for your pods" in migrate mode, in the built site (make dist), in headless
// Chromium: for real V1 jobs from the corpus (CoreWeave's ImageNet PyTorchJob, whose command
// expands $(WORLD_SIZE), $(RANK) and $(MASTER_ADDR); AWS's MNIST PyTorchJob, whose Worker has a
// required podAffinity the Master lacks), the reader sees first, marked, what changes how the
// pods run (the dropped affinity said in words, the variables the TrainJob still sets with their
// new values), each V1 role against the V2 pods it became, the variables V2 replaces (its pods
// lack them) as a table, and the operators' label bookkeeping folded under its count;
// on a 390 px phone nothing scrolls sideways and no value wraps inside a token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, MAIN_WIDGET, nodeModule, openMigrate } from './helpers.mjs';

const YAML = nodeModule('yaml');

const REAL_V1 = process.env.TRAINER_REAL_V1 ?? '../shared/real-v1';
const JOB = readFileSync(join(REAL_V1, '14-coreweave-imagenet-pytorchjob.yaml'), 'utf8');
const AWS_JOB = readFileSync(join(REAL_V1, '08-awsdoeks-mnist-master-worker.yaml'), 'utf8');
// AWS's elastic PyTorchJob: its etcd rendezvous variables have no V2 counterpart (a table).
const ELASTIC_JOB = readFileSync(join(REAL_V1, '07-awsdoeks-imagenet-elastic-etcd.yaml'), 'utf8');
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function showPods(viewport, job = JOB, colorScheme = 'light', shot = null) {
  const context = await browser.newContext({ viewport, colorScheme });
  const { page, errors } = await openMigrate(context, job);
  // The section has arrived for this job, not the built-in sample the page converted first (its
  // heading names the job), and its stylesheet applies (the behaviour group's bar).
  const { kind, metadata } = YAML.parse(job);
  await page.waitForFunction(
    ([sel, job]) => {
      const section = document.querySelector(sel)?.shadowRoot?.querySelector('.pods-changes');
      const group = section?.querySelector('.pods-behaviour');
      const heading = section?.querySelector('.pods-h3')?.textContent.replace(/\s+/g, ' ').trim() ?? '';
      return heading.endsWith(job) && Boolean(group) && getComputedStyle(group).borderLeftStyle === 'solid';
    },
    [MAIN_WIDGET, ` ${kind} ${metadata.name}`],
    { timeout: 15000 },
  );
  const seen = await page.evaluate((sel) => {
    const section = document.querySelector(sel).shadowRoot.querySelector('.pods-changes');
    const rows = [...section.querySelectorAll('.pods-env tbody tr')].map((tr) =>
      [...tr.children].map((cell) => cell.innerText.trim()),
    );
    // A text run inside a value that the browser split over lines: each run between two <wbr>
    // is its own text node, so a run drawn as more boxes than it has spaces and hyphens (the
    // breaks a reader expects) was broken inside a token.
    const brokenTokens = [];
    for (const code of section.querySelectorAll('code')) {
      if (!code.getClientRects().length) continue; // folded away
      for (const node of code.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        const allowed = 1 + (node.textContent.match(/[\s-]/g) ?? []).length;
        if (lines.size > allowed) brokenTokens.push(node.textContent);
      }
    }
    const groups = [...section.querySelectorAll('.pods-group')].map((g) => ({
      heading: g.querySelector('.pods-h4').innerText,
      roles: [...g.querySelectorAll('.pods-role .pods-h5')].map((h) => h.innerText),
      items: [...g.querySelectorAll('.pods-diffs > li')].map((li) => li.innerText),
      bar: getComputedStyle(g).borderLeftWidth,
    }));
    const folded = section.querySelector('details.pods-bookkeeping');
    return {
      heading: section.querySelector('.pods-h3').innerText,
      sides: section.querySelector('.pods-sides').innerText,
      groups,
      bookkeeping: folded && { open: folded.open, summary: folded.querySelector('summary').innerText, height: folded.getBoundingClientRect().height },
      roles: [...section.querySelectorAll('.pods-behaviour .pods-role .pods-h5')].map((h) => h.innerText),
      items: [...section.querySelectorAll('.pods-diffs > li')].map((li) => li.innerText),
      unexplained: section.querySelectorAll('.unexplained').length,
      rows,
      tables: [...section.querySelectorAll('.pods-env')].map((t) => t.innerText),
      brokenTokens,
      overflow: section.scrollWidth - section.clientWidth,
      envOverflow: [...section.querySelectorAll('.pods-env')].map((e) => e.scrollWidth - e.clientWidth),
    };
  }, MAIN_WIDGET);
  if (shot) {
    const section = page.locator(`${MAIN_WIDGET} .pods-changes`).first();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: shot });
  }
  await context.close();
  return { seen, errors };
}

test('a real PyTorchJob shows what changes for its pods, role by role, the variables it still sets among them', async () => {
  const { seen, errors } = await showPods({ width: 1280, height: 900 });
  assert.deepEqual(errors, []);
  assert.match(seen.heading, /^What changes for your pods\s+PyTorchJob imagenet-pytorchjob$/);
  assert.deepEqual(seen.roles, ['Master → node', 'Worker → node']);
  assert.equal(seen.unexplained, 0);
  // What changes how the pods run comes first, marked with a bar; the 9 operator labels are
  // folded under their count.
  assert.equal(seen.groups[0].heading, 'Changes how your pods run (14)');
  assert.notEqual(seen.groups[0].bar, '0px');
  assert.match(seen.sides, /24 difference\(s\), each with its reason: what changes how the pods run, 14; plumbing V2 does its own way, 1; the operators' bookkeeping, 9\./);
  assert.deepEqual(seen.bookkeeping.open, false);
  assert.match(seen.bookkeeping.summary, /^The operators' bookkeeping \(9\)/);
  assert.ok(!seen.items.some((t) => t.includes('training.kubeflow.org/')), 'a label difference is not folded');
  // The command's $(VAR)s rewritten to V2's, said on the command itself.
  assert.ok(seen.items.some((t) => t.startsWith('command') && t.includes('$(PET_NODE_RANK)') && t.includes('rewritten to V2')), seen.items.join('\n'));
  // MASTER_PORT, MASTER_ADDR and RANK: the TrainJob still sets them (spec.trainer.env, for code
  // that reads the V1 names), so they are the same variables with new values, among the changes
  // to how the pods run, not variables V2 replaces.
  const port = seen.groups[0].items.find((t) => t.startsWith('environment env.MASTER_PORT'));
  assert.ok(port, seen.groups[0].items.join('\n'));
  assert.match(port, /23456 → 29500\s+same variable, new value: the TrainJob's spec\.trainer\.env sets it for code that reads the V1 name, to the value of PET_MASTER_PORT/);
  assert.deepEqual(seen.rows, [], 'a variable the V2 pods still have is in the table of replaced ones');
  assert.ok(!seen.tables.some((t) => /MASTER_(ADDR|PORT)|\bRANK\b/.test(t)), seen.tables.join('\n'));
});

test("an AWS PyTorchJob's dropped podAffinity comes first, said in words, tagged scheduling", async () => {
  const { seen, errors } = await showPods({ width: 1280, height: 900 }, AWS_JOB, 'light', process.env.SHOTS && `${process.env.SHOTS}/pods-aws-desktop.png`);
  assert.deepEqual(errors, []);
  const [behaviour] = seen.groups;
  assert.match(behaviour.heading, /^Changes how your pods run/);
  const affinity = behaviour.items.find((t) => t.startsWith('scheduling affinity'));
  assert.ok(affinity, behaviour.items.join('\n'));
  assert.match(affinity, /dropped: must run in the same zone \(topology\.kubernetes\.io\/zone\) as pods with app in \(mnist\) \(required pod affinity\)/);
  assert.ok(!seen.items.some((t) => / is none/.test(t)));
  assert.ok(behaviour.items.some((t) => t.startsWith('resources resources') && t.includes('added: cpu request 4')), behaviour.items.join('\n'));
  assert.equal(seen.unexplained, 0);
  assert.deepEqual(seen.brokenTokens, []);
});

test('variables V2 replaces sit in a table: what V2 sets instead and how they relate', async () => {
  const { seen, errors } = await showPods({ width: 1280, height: 900 }, ELASTIC_JOB);
  assert.deepEqual(errors, []);
  const backend = seen.rows.find((r) => r[0] === 'PET_RDZV_BACKEND');
  assert.deepEqual(backend?.slice(1, 3), ['etcd', 'nothing'], JSON.stringify(seen.rows));
  assert.match(backend[3], /V2 has no elasticPolicy/);
});

for (const colorScheme of ['light', 'dark']) {
  test(`on a 390 px phone (${colorScheme}) nothing scrolls sideways and no value wraps inside a token`, async () => {
    const shot = process.env.SHOTS && `${process.env.SHOTS}/pods-phone-${colorScheme}.png`;
    for (const job of [JOB, ELASTIC_JOB]) {
      const { seen, errors } = await showPods({ width: 390, height: 844 }, job, colorScheme, job === JOB ? shot : null);
      assert.deepEqual(errors, []);
      assert.ok(seen.overflow <= 0, `the section is ${seen.overflow}px wider than its box`);
      assert.deepEqual(seen.envOverflow.filter((o) => o > 0), [], 'an env table scrolls sideways');
      assert.deepEqual(seen.brokenTokens, []);
      if (job === ELASTIC_JOB) assert.ok(seen.rows.length > 0, 'no env table to check');
    }
  });
}

test('on the desktop no value wraps inside a token (PET_MASTER_PORT whole)', async () => {
  const { seen } = await showPods({ width: 1280, height: 900 }, JOB, 'light', process.env.SHOTS && `${process.env.SHOTS}/pods-coreweave-desktop.png`);
  assert.deepEqual(seen.brokenTokens, []);
  assert.deepEqual(seen.envOverflow.filter((o) => o > 0), []);
});
