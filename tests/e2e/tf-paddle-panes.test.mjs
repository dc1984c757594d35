// TensorFlow and PaddlePaddle in the built site (make dist), in headless Chromium: the V2 pane
// shows the path `migrate` writes (a TrainJob on a generated plain-ML TrainingRuntime that keeps
// TF_CONFIG / PADDLE_*), not "No V2 equivalent", for both personas; the framework picker does not
// strike them. Screenshots (desktop 1280, 375 px phone, dark) go to target/e2e-tfpanes-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, MAIN_WIDGET, openWidget } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

async function open(options, query) {
  const context = await browser.newContext(options);
  const { page, errors } = await openWidget(context, query);
  await page.locator(`${MAIN_WIDGET} .pane.v2`).scrollIntoViewIfNeeded();
  return { context, page, errors };
}

/** What the V2 pane shows: its notice, and each code block's caption and text. */
const v2Pane = (page) =>
  page.evaluate((sel) => {
    const pane = document.querySelector(sel).shadowRoot.querySelector('.pane.v2');
    return {
      notice: pane.querySelector('.notice')?.textContent ?? '',
      code: [...pane.querySelectorAll('pre code')].map((c) => c.textContent),
      text: pane.textContent,
      struck: [...document.querySelector(sel).shadowRoot.querySelectorAll('[role=radiogroup].framework button.lacks')].map((b) => b.textContent),
    };
  }, MAIN_WIDGET);

const DESKTOP = { viewport: { width: 1280, height: 900 } };

for (const [framework, contract, kind] of [
  ['tensorflow', 'TF_CONFIG', 'TFJob'],
  ['paddle', 'PADDLE_MASTER', 'PaddleJob'],
]) {
  test(`${framework}: the V2 pane shows the TrainJob and the runtime migrate writes, for both personas`, async () => {
    const ds = await open(DESKTOP, `persona=data-scientist&framework=${framework}`);
    let view = await v2Pane(ds.page);
    assert.ok(!view.text.includes('No V2 equivalent'), view.text);
    assert.ok(!view.text.includes('Keep running'), view.text);
    assert.deepEqual(view.struck, [], 'the newest release strikes no framework');
    assert.match(view.notice, /the migrator writes one/);
    assert.match(view.notice, /No Python SDK path/);
    assert.equal(view.code.length, 1, view.code.join('\n---\n'));
    assert.match(view.code[0], /^kind: TrainJob$/m);
    assert.match(view.code[0], new RegExp(`Written by \`trainer-explorer migrate\` for the ${kind}`));
    assert.match(view.code[0], /kind: TrainingRuntime/);
    if (framework === 'tensorflow') {
      assert.match(view.notice, /trainer#2699/);
      await ds.page.screenshot({ path: 'target/e2e-tfpanes-desktop-ds.png' });
    }
    assert.deepEqual(ds.errors, []);
    await ds.context.close();

    const pe = await open(DESKTOP, `persona=platform-engineer&framework=${framework}`);
    view = await v2Pane(pe.page);
    assert.ok(!view.text.includes('No V2 equivalent'), view.text);
    assert.match(view.code[0], /^kind: TrainingRuntime$/m);
    assert.ok(view.code[0].includes(contract), view.code[0]);
    assert.ok(!view.notice.includes('SDK'), 'the platform engineer writes no Python');
    if (framework === 'paddle') await pe.page.screenshot({ path: 'target/e2e-tfpanes-desktop-pe.png' });
    assert.deepEqual(pe.errors, []);
    await pe.context.close();
  });
}

test('screenshots: 375 px phone and dark', async () => {
  for (const [name, options, query] of [
    ['phone', { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }, 'persona=data-scientist&framework=tensorflow'],
    ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }, 'persona=platform-engineer&framework=tensorflow'],
  ]) {
    const { context, page, errors } = await open(options, query);
    const view = await v2Pane(page);
    assert.ok(!view.text.includes('No V2 equivalent'), view.text);
    await page.screenshot({ path: `target/e2e-tfpanes-${name}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
