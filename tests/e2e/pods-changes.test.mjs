// "What changes for your pods" in migrate mode, in the built site (make dist), in headless
// Chromium: for a real V1 job from the corpus (CoreWeave's ImageNet PyTorchJob, whose command
// expands $(WORLD_SIZE), $(RANK) and $(MASTER_ADDR)), the reader sees each V1 role against the
// V2 pods it became, every difference with its reason, and the variables V2 replaces as a table,
// styled by the converter module's own sheet; on a phone the table scrolls inside its box.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, launch, waitForConvertedTrainJob, MAIN_WIDGET, scrollAsReader } from './helpers.mjs';

const REAL_V1 = process.env.TRAINER_REAL_V1 ?? '../shared/real-v1';
const JOB = readFileSync(join(REAL_V1, '14-coreweave-imagenet-pytorchjob.yaml'), 'utf8');
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function showPods(viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL('?mode=migrate#user-experience', BASE).href);
  // The widget mounts when it comes into view; on a phone the anchor alone may leave it below.
  await scrollAsReader(page, MAIN_WIDGET);
  await waitForConvertedTrainJob(page);
  await page.locator(`${MAIN_WIDGET} #m-input`).fill(JOB);
  // The section has arrived and its stylesheet applies (the env table's box scrolls sideways).
  await page.waitForFunction(
    (sel) => {
      const env = document.querySelector(sel)?.shadowRoot?.querySelector('.pods-changes .pods-env');
      return env && getComputedStyle(env).overflowX === 'auto';
    },
    MAIN_WIDGET,
    { timeout: 15000 },
  );
  const seen = await page.evaluate((sel) => {
    const section = document.querySelector(sel).shadowRoot.querySelector('.pods-changes');
    const rows = [...section.querySelectorAll('.pods-env tbody tr')].map((tr) =>
      [...tr.children].map((cell) => cell.innerText.trim()),
    );
    return {
      heading: section.querySelector('.pods-h3').innerText,
      roles: [...section.querySelectorAll('.pods-role .pods-h4')].map((h) => h.innerText),
      items: [...section.querySelectorAll('.pods-diffs li')].map((li) => li.innerText),
      unexplained: section.querySelectorAll('.unexplained').length,
      rows,
      overflow: section.scrollWidth - section.clientWidth,
    };
  }, MAIN_WIDGET);
  await context.close();
  return { seen, errors };
}

test('a real PyTorchJob shows what changes for its pods, role by role, with an env table', async () => {
  const { seen, errors } = await showPods({ width: 1280, height: 900 });
  assert.deepEqual(errors, []);
  assert.match(seen.heading, /^What changes for your pods\s+PyTorchJob imagenet-pytorchjob$/);
  assert.deepEqual(seen.roles, ['Master → node', 'Worker → node']);
  assert.equal(seen.unexplained, 0);
  // The command's $(VAR)s rewritten to V2's, said on the command itself.
  assert.ok(seen.items.some((t) => t.startsWith('command') && t.includes('$(PET_NODE_RANK)') && t.includes('rewritten to V2')), seen.items.join('\n'));
  // The Worker's RANK: V1's number for the pod, V2's PET_NODE_RANK from the completion index.
  const rank = seen.rows.find((r) => r[0] === 'RANK' && r[1] === '1');
  assert.ok(rank, JSON.stringify(seen.rows));
  assert.match(rank[2], /^PET_NODE_RANK = fieldRef:metadata\.annotations\['batch\.kubernetes\.io\/job-completion-index'\]/);
  assert.match(rank[3], /torchrun sets each process's RANK/);
  const port = seen.rows.find((r) => r[0] === 'MASTER_PORT');
  assert.deepEqual(port?.slice(1, 3), ['23456', 'PET_MASTER_PORT = 29500']);
});

test('on a 390 px phone the section fits and its env table scrolls inside', async () => {
  const { seen, errors } = await showPods({ width: 390, height: 844 });
  assert.deepEqual(errors, []);
  assert.ok(seen.rows.length > 0);
  assert.ok(seen.overflow <= 0, `the section is ${seen.overflow}px wider than its box`);
});
