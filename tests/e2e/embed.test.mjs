// The three embed recipes, rendered by the real Jekyll, Hugo and Sphinx (make examples), in
// headless Chromium: each page's mount points get the widget, with no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, mountAll } from './helpers.mjs';

let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

for (const [site, expected] of [
  ['jekyll', ['mlx', 'torchtune']],
  ['hugo', ['jax', 'deepspeed']],
  ['sphinx', ['pytorch']],
]) {
  test(`the ${site} recipe mounts the widget over its static fallback`, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    // A host theme without an icon makes the browser ask for /favicon.ico; that 404 is the
    // host's, not the widget's. Any other failed load fails the test.
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url?.endsWith('/favicon.ico')) errors.push(`${m.text()} ${m.location().url}`);
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL(`examples/${site}/index.html`, BASE).href);
    // Before mounting, the generated fallback is in the page.
    assert.equal(await mountAll(page), expected.length);
    const frameworks = await page.evaluate(() =>
      [...document.querySelectorAll('[data-trainer-v2-explorer]')].map(
        (el) => el.shadowRoot.querySelector('.framework [aria-checked="true"]').getAttribute('data-value'),
      ),
    );
    assert.deepEqual(frameworks, expected);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
