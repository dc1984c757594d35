// Keyboard alone, with real key presses in headless Chromium: every control of the main explorer
// is reachable with Tab, shows where focus is, works with the keys a reader expects, and Tab
// leaves the widget again (no trap).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, rendered } from './helpers.mjs';

const MAIN = '[data-trainer-v2-explorer]:not([data-compact])';
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

/** What has focus, described from inside the main widget's shadow root ('outside' if not in it). */
const focused = (page) =>
  page.evaluate((MAIN) => {
    const host = document.querySelector(MAIN);
    if (document.activeElement !== host) return { where: 'outside' };
    const el = host.shadowRoot.activeElement;
    const group = el.closest('[role="radiogroup"]');
    const style = getComputedStyle(el);
    return {
      where: group ? `radios:${group.getAttribute('aria-label')}` : `${el.tagName.toLowerCase()}:${el.id || el.className || el.getAttribute('aria-label')}`,
      value: el.getAttribute('data-value'),
      label: el.closest('label')?.textContent.trim(),
      outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
  }, MAIN);

const checked = (page, group) =>
  page.evaluate(
    ([MAIN, group]) =>
      document.querySelector(MAIN).shadowRoot.querySelector(`.${group} [aria-checked="true"]`).getAttribute('data-value'),
    [MAIN, group],
  );

/** The group's checked value once it is `want`, or what it is when the wait gives up. A key's
 * choice lands on the widget's next scheduled render, not inside the key event, so the test waits
 * for the state a reader would see; a choice that never comes (a wrong step, a stale handler)
 * still fails, with the value the widget shows. */
async function untilChecked(page, group, want) {
  const shows = ([MAIN, group, want]) =>
    document.querySelector(MAIN).shadowRoot.querySelector(`.${group} [aria-checked="true"]`)?.getAttribute('data-value') === want;
  await page.waitForFunction(shows, [MAIN, group, want], { timeout: 5000 }).catch(() => {});
  return checked(page, group);
}

async function openAtExplorer() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(new URL('#user-experience', BASE).href);
  await page.waitForSelector(rendered(MAIN));
  // Start from the section's own anchor link, as a keyboard reader arriving there would.
  await page.focus('#user-experience a.anchor');
  return { context, page };
}

test('Tab reaches every control of the explorer, each visibly focused, and then leaves it', async () => {
  const { context, page } = await openAtExplorer();
  const stops = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.where === 'outside') {
      if (stops.length) break; // left the widget after visiting it
      continue; // still in the text before it
    }
    stops.push(f);
  }
  const where = stops.map((s) => s.where);
  // One stop per radio group (roving tabindex), then the parameters, then each snippet's copy
  // button and its scrollable code.
  for (const group of ['View', 'Trainer release', 'Persona', 'Framework', 'Runtime scope']) {
    assert.equal(where.filter((w) => w === `radios:${group}`).length, 1, `${group}: ${where.join(', ')}`);
  }
  const inputs = where.filter((w) => /^(input|select):/.test(w));
  assert.ok(inputs.length >= 7, `every parameter field: ${inputs.join(', ')}`);
  const snippets = await page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.querySelectorAll('figure.snippet').length, MAIN);
  assert.equal(where.filter((w) => w.startsWith('button:copy')).length, snippets, where.join(', '));
  assert.equal(where.filter((w) => w.startsWith('pre:')).length, snippets, where.join(', '));
  assert.deepEqual(stops.filter((s) => !s.outlined).map((s) => s.where), [], 'focus is visible on every stop');
  assert.equal((await focused(page)).where, 'outside', 'Tab leaves the widget');
  await context.close();
});

test('arrow keys, Home and End choose a framework and the view, and the code follows', async () => {
  const { context, page } = await openAtExplorer();
  const v2 = () => page.evaluate((MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.pane.v2').textContent, MAIN);
  // Tab to the framework group: its one stop is the checked framework.
  for (let i = 0; i < 20 && (await focused(page)).where !== 'radios:Framework'; i++) await page.keyboard.press('Tab');
  assert.equal((await focused(page)).value, await checked(page, 'framework'));
  await page.keyboard.press('End');
  assert.equal(await untilChecked(page, 'framework', 'paddle'), 'paddle');
  assert.equal((await focused(page)).value, 'paddle', 'focus moves with the selection');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.equal(await untilChecked(page, 'framework', 'deepspeed'), 'deepspeed');
  assert.match(await v2(), /deepspeed-distributed/);

  // Back to the view group with Shift+Tab; the arrow selects "Migrate a V1 job", which opens the converter.
  for (let i = 0; i < 20 && (await focused(page)).where !== 'radios:View'; i++) await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowRight');
  assert.equal(await untilChecked(page, 'mode', 'migrate'), 'migrate');
  await page.waitForFunction(
    (MAIN) => document.querySelector(MAIN).shadowRoot.querySelector('.migrate-result')?.textContent.includes('TrainJob'),
    MAIN,
  );
  // The release applies to both views, so its group comes next, then "Wrap long lines" (it wraps
  // migrate mode's output too), then the pasted-YAML field.
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).where, 'radios:Trainer release');
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).label, 'Wrap long lines', 'the wrap switch is the next stop');
  await page.keyboard.press('Tab');
  assert.match((await focused(page)).where, /^textarea:/, 'the pasted-YAML field is the next stop');
  await context.close();
});
