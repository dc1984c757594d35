// The widget's shadow-root HTML and rendered text for a fixed set of selections and interactions:
// what a size cut (a change that must leave everything a reader sees as it was) is compared by.
//
//   node scripts/widget-snapshot.mjs BASE_URL OUT.json [BEFORE.json]
//
// BASE_URL serves a built dist/ (scripts/build-dist.sh; scripts/serving.sh's `serve base --dir
// dist`). Each selection is opened as the page's query, the main explorer mounted, and its
// `.tv2x` element's outerHTML and innerText taken: as mounted, after typing 7 into the first field,
// after picking the third framework, the other persona, "Wrap long lines" and the oldest release.
// With BEFORE.json (the same run on the commit before the change), every state must be identical
// and page errors none: a difference is printed and the exit status is 1.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE ?? 'playwright-core');
const [base, out, before] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/widget-snapshot.mjs BASE_URL OUT.json [BEFORE.json]');
  process.exit(2);
}

// Both personas with six frameworks across the four release lines, then parameters typed in the URL.
const selections = [];
for (const persona of ['platform-engineer', 'data-scientist']) {
  for (const [framework, release] of [['pytorch', 'v2.3'], ['torchtune', 'v2.0'], ['mpi', 'v2.1'], ['tensorflow', 'v2.3'], ['xgboost', 'v2.2'], ['deepspeed', 'v2.0']]) {
    selections.push(`persona=${persona}&framework=${framework}&release=${release}`);
  }
}
selections.push('persona=platform-engineer&framework=jax&scope=namespaced&namespace=team-a&nodes=3&gpus=2&image=reg.io/x:1');
selections.push('persona=data-scientist&framework=torchtune&model=qwen2.5-1.5b&dataset=hf://a/b&queue=q1&release=v2.3');
selections.push('persona=data-scientist&framework=paddle&nodes=4&procs=2&name=my-job');
selections.push('persona=data-scientist&framework=pytorch&nodes=999');

const MAIN = '[data-trainer-v2-explorer]:not([data-compact])';
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const grab = (page) =>
  page.evaluate((main) => {
    const root = document.querySelector(main).shadowRoot.querySelector('.tv2x');
    return { html: root.outerHTML, text: root.innerText };
  }, MAIN);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const result = {};
try {
  for (const query of selections) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}index.html?${query}`);
    await page.locator(MAIN).scrollIntoViewIfNeeded();
    await page.waitForFunction((main) => document.querySelector(main).hasAttribute('data-trainer-v2-explorer-mounted'), MAIN, { timeout: 30000 });
    await frames(page);
    const states = { mounted: await grab(page) };
    const widget = page.locator(MAIN);
    const steps = [
      ['typed', () => widget.locator('.params input').first().fill('7')],
      ['framework', () => widget.locator('.radios.framework [role=radio]').nth(2).click()],
      ['persona', () => widget.locator('.radios.persona [role=radio]:not([aria-checked=true])').click()],
      ['wrapped', () => widget.locator('.wrap-toggle input').first().click()],
      ['release', () => widget.locator('.radios.release [role=radio]').first().click()],
    ];
    for (const [name, act] of steps) {
      await act();
      await frames(page);
      states[name] = await grab(page);
    }
    states.errors = errors;
    result[query] = states;
    await context.close();
  }
} finally {
  await browser.close();
}
writeFileSync(out, JSON.stringify(result, null, 1));
const states = Object.values(result).reduce((n, s) => n + Object.keys(s).length, 0);
console.log(`${selections.length} selections, ${states} states (page errors included) -> ${out}`);

if (before) {
  const old = JSON.parse(readFileSync(before, 'utf8'));
  let differ = 0;
  for (const [query, now] of Object.entries(result)) {
    for (const [state, value] of Object.entries(now)) {
      if (JSON.stringify(value) !== JSON.stringify(old[query]?.[state])) {
        differ++;
        console.log(`differs: ${query} (${state})`);
      }
    }
  }
  for (const [query, states] of Object.entries(result)) {
    if (states.errors.length) console.log(`page errors: ${query}: ${states.errors.join('; ')}`);
  }
  const errors = Object.values(result).some((s) => s.errors.length);
  console.log(`${states - differ}/${states} identical to ${before}`);
  if (differ || errors) process.exit(1);
}
