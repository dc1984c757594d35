// "Upgrading from an older release" in the built site (make dist), in headless Chromium: opening
// it loads the upgrade module (crates/upgrade-wasm, not the converter), which lists what changes in the selection's YAML from each
// older release line to the selected one (explorer_html::upgrade_view); it follows the release while open and
// is not offered at the oldest. Screenshots (desktop, 375 px phone, dark) go to
// target/e2e-upgrade-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertShownWell, BASE, launch, MAIN_WIDGET, openPane } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const WIDGET = MAIN_WIDGET;
const TORCH_PROCS = 'spec.mlPolicy.torch.numProcPerNode';

const open = (context, query, base) => openPane(context, query, 'upgrade-pane', base);
const CSP_BASE = process.env.CSP_BASE_URL;

/** The notes once they are in for release `to`: per `from` section, its notes as a reader reads
 * them (field, action, release, text, the pull request links). */
async function notes(page, to) {
  await page.waitForFunction(
    ([sel, to]) =>
      document.querySelector(sel)?.shadowRoot?.querySelector(`.upgrade-pane .pane-body .up[data-to="${to}"]`),
    [WIDGET, to],
    { timeout: 15000 },
  );
  return page.evaluate((sel) => {
    const body = document.querySelector(sel).shadowRoot.querySelector('.upgrade-pane .pane-body');
    return [...body.querySelectorAll('section.up-from')].map((s) => ({
      from: s.dataset.from,
      heading: s.querySelector('h4').textContent,
      none: s.querySelector('.up-none')?.textContent ?? null,
      notes: [...s.querySelectorAll('li[data-field]')].map((li) => ({
        field: li.dataset.field,
        action: li.dataset.action,
        release: li.dataset.release,
        text: li.textContent,
        links: [...li.querySelectorAll('a')].map((a) => a.href),
      })),
    }));
  }, WIDGET);
}

const pickRelease = (page, line) => page.locator(`${WIDGET} .release [data-value="${line}"]`).click();

test('a platform engineer\'s torch runtime at v2.3: each older release, and it follows the release', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(context, 'persona=platform-engineer&framework=pytorch');
  let sections = await notes(page, 'v2.3');
  assert.deepEqual(sections.map((s) => s.from), ['v2.2', 'v2.1', 'v2.0'], 'newest first');
  assert.equal(sections[0].heading, 'From v2.2.1 to v2.3.0');
  assert.equal(sections[0].none, 'No changes to this YAML.');
  for (const s of sections.slice(1)) {
    const procs = s.notes.find((n) => n.field === TORCH_PROCS);
    assert.ok(procs, `${s.from}: ${JSON.stringify(s)}`);
    assert.equal(procs.release, 'v2.2');
    assert.equal(procs.action, 'omitted');
    assert.ok(procs.text.startsWith(`${TORCH_PROCS} left out (ClusterTrainingRuntime torch-distributed)`), procs.text);
    assert.ok(procs.text.includes('v2.2 #3239: the torch policy lost numProcPerNode: each TrainJob states it in spec.trainer.numProcPerNode'), procs.text);
    assert.deepEqual(procs.links, ['https://github.com/kubeflow/trainer/pull/3239']);
  }
  await page.locator(`${WIDGET} .upgrade-pane summary`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'target/e2e-upgrade-desktop.png', fullPage: false });

  // At v2.2 the change is still there from v2.1 and v2.0; at v2.1 (before the change) it is gone.
  await pickRelease(page, 'v2.2');
  sections = await notes(page, 'v2.2');
  assert.deepEqual(sections.map((s) => s.from), ['v2.1', 'v2.0']);
  assert.ok(sections[0].notes.some((n) => n.field === TORCH_PROCS && n.release === 'v2.2'), JSON.stringify(sections));
  await pickRelease(page, 'v2.1');
  sections = await notes(page, 'v2.1');
  assert.deepEqual(sections.map((s) => s.from), ['v2.0']);
  assert.ok(!sections[0].notes.some((n) => n.field === TORCH_PROCS), JSON.stringify(sections));
  assert.ok(sections[0].none || sections[0].notes.length, JSON.stringify(sections));
  // Nothing is older than v2.0: no disclosure.
  await pickRelease(page, 'v2.0');
  await page.waitForFunction((sel) => !document.querySelector(sel).shadowRoot.querySelector('.upgrade-pane'), WIDGET);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a data scientist gets the notes for the TrainJob, and a release without the framework says so', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await open(context, 'persona=data-scientist&framework=jax');
  const sections = await notes(page, 'v2.3');
  assert.equal(sections[0].none, 'No changes to this YAML.');
  const v2_1 = sections.find((s) => s.from === 'v2.1');
  assert.deepEqual(v2_1.notes, []);
  const text = await page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector('[data-from="v2.1"]').textContent, WIDGET);
  assert.ok(text.includes('Trainer v2.1.0 has no runtime for this selection'), text);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone and dark (screenshots): the open notes pass axe and the page does not scroll sideways', async () => {
  for (const [name, options] of [
    ['phone', { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ]) {
    const context = await browser.newContext(options);
    const { page, errors } = await open(context, 'persona=platform-engineer&framework=pytorch&release=v2.2');
    await notes(page, 'v2.2');
    await page.locator(`${WIDGET} .upgrade-pane summary`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `target/e2e-upgrade-${name}.png`, fullPage: false });
    await assertShownWell(page, WIDGET);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('opening the notes downloads their own module, not the converter', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const fetched = [];
  context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const { page, errors } = await open(context, 'persona=platform-engineer&framework=pytorch');
  await notes(page, 'v2.3');
  const wasm = fetched.filter((p) => p.endsWith('.wasm')).map((p) => p.split('/').pop());
  assert.ok(wasm.includes('trainer_v2_upgrade_bg.wasm'), wasm.join(', '));
  // The converter (its migration, pod comparison and CEL) is for migrate mode.
  assert.ok(!wasm.includes('trainer_v2_migrate_bg.wasm'), `the notes downloaded ${wasm.join(', ')}`);
  const bytes = async (name) => (await (await fetch(new URL(`pkg-migrate/${name}`, BASE))).arrayBuffer()).byteLength;
  const [own, converter] = [await bytes('trainer_v2_upgrade_bg.wasm'), await bytes('trainer_v2_migrate_bg.wasm')];
  assert.ok(own < converter, `upgrade module ${own} B, converter ${converter} B`);
  assert.deepEqual(errors, []);
  await context.close();
});

// Under the post's strict CSP (scripts/serve.py: script-src 'self' 'wasm-unsafe-eval', style-src
// 'self'): the module loads, and the notes' styles come as an adopted sheet, not a <style> element
// the policy blocks (the browser says so on the console).
test('the notes load and are styled under the strict CSP', { skip: !CSP_BASE && 'no CSP server' }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const refused = [];
  context.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
  const { page, errors } = await open(context, 'persona=platform-engineer&framework=pytorch', CSP_BASE);
  const sections = await notes(page, 'v2.3');
  assert.deepEqual(sections.map((s) => s.from), ['v2.2', 'v2.1', 'v2.0']);
  assert.deepEqual([...errors, ...refused], []);
  const heading = await page.evaluate(
    (sel) => getComputedStyle(document.querySelector(sel).shadowRoot.querySelector('.up h4')).fontSize,
    WIDGET,
  );
  assert.equal(heading, '14px', 'upgrade.css applies');
  await context.close();
});
