// The Runtime switch in the built site (make dist), in headless Chromium. Where the V2 path is a
// runtime generated for the job (TensorFlow, PaddlePaddle), it has one kind: the widget shows
// that kind and why, with no switch that would change nothing, and the YAML agrees (the
// runtime's kind, the TrainJob's runtimeRef.kind), also when a link asks for scope=cluster.
// Where the switch is offered (PyTorch), clicking it changes the kind in the YAML.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, MAIN_WIDGET, openWidget } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

/** The Runtime control's text and switch, and the V2 pane's code. */
const seen = (page) =>
  page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const control = [...root.querySelectorAll('.control')].find((c) => c.querySelector('.control-label')?.textContent === 'Runtime');
    return {
      control: control?.innerText ?? '',
      radios: [...(control?.querySelectorAll('[role=radio]') ?? [])].map((r) => [r.textContent, r.getAttribute('aria-checked')]),
      code: [...root.querySelectorAll('.pane.v2 pre code')].map((c) => c.textContent).join('\n---\n'),
    };
  }, MAIN_WIDGET);

for (const framework of ['tensorflow', 'paddle']) {
  for (const persona of ['platform-engineer', 'data-scientist']) {
    test(`${framework}, ${persona}: the generated runtime's one kind is shown with its reason, and the YAML agrees`, async () => {
      for (const query of [`persona=${persona}&framework=${framework}`, `persona=${persona}&framework=${framework}&scope=cluster`]) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const { page, errors } = await openWidget(context, query);
        const view = await seen(page);
        assert.deepEqual(view.radios, [], `${query}: a switch that changes nothing: ${JSON.stringify(view.radios)}`);
        assert.match(view.control, /TrainingRuntime \(one namespace\)/, query);
        assert.match(view.control, /migrate writes this runtime for one job/, query);
        assert.ok(!/ClusterTrainingRuntime/.test(view.code), `${query}: ${view.code}`);
        // The platform engineer's pane holds the runtime, the data scientist's the TrainJob.
        if (persona === 'platform-engineer') assert.match(view.code, /^kind: TrainingRuntime$/m, query);
        else assert.match(view.code, /runtimeRef:\n(\s+\w+: .*\n)*?\s+kind: TrainingRuntime$/m, query);
        assert.deepEqual(errors, []);
        await context.close();
      }
    });
  }
}

test('pytorch: the switch is offered and clicking it changes the kind in the YAML', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await openWidget(context, 'persona=platform-engineer&framework=pytorch');
  let view = await seen(page);
  assert.deepEqual(view.radios, [['ClusterTrainingRuntime', 'true'], ['TrainingRuntime (one namespace)', 'false']]);
  assert.match(view.code, /^kind: ClusterTrainingRuntime$/m);
  await page.locator(`${MAIN_WIDGET} .control [role=radio][data-value=namespaced]`).click();
  await page.waitForFunction(
    (sel) => /^kind: TrainingRuntime$/m.test(document.querySelector(sel).shadowRoot.querySelector('.pane.v2 pre code')?.textContent ?? ''),
    MAIN_WIDGET,
    { timeout: 5000 },
  );
  view = await seen(page);
  assert.deepEqual(view.radios[1], ['TrainingRuntime (one namespace)', 'true']);
  assert.deepEqual(errors, []);
  await context.close();
});
