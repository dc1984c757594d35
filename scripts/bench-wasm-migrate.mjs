// make bench's row "Migrate 1 MB manifest, wasm in Chromium": the converter module's migrate(text)
// on the 1 MB manifest, on the main thread of fresh blank pages.
//
// Why several pages: one page's best of 3 calls swung 1.6× on the same module on this shared
// machine (BENCHMARKS.md, "The wasm 1 MB row over several pages"), so a budget judged on one page
// was decided by which page it got. The row judges the median of the pages' figures, as the time
// to interactive row does, and shows their range, so a slow page stays visible.
import { pct } from './toggle-loop.mjs';

export const WASM_MIGRATE_PAGES = 5;

/**
 * Each of `pages` pages: a new browser context (so a new renderer, whose V8 compiles the module
 * anew) on the blank page of the served origin (scripts/bench.sh writes it), isolated from the
 * post and its toggle loops as the converter's worker is for a reader. There migrate(text) is
 * called once, timed on its own (V8 compiles the module's functions lazily as they are first
 * called, and tiers the hot ones up while the next calls run), then 3 times; the page's figure is
 * the best of those 3.
 * Returns the text's bytes, each page's { firstMs, bestMs }, and over the pages the median best,
 * the lowest and highest best, and the median first call.
 */
export async function wasmMigrateOverPages(browser, baseUrl, pages = WASM_MIGRATE_PAGES) {
  const perPage = [];
  let bytes = 0;
  for (let i = 0; i < pages; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(new URL('_bench/blank.html', baseUrl).href);
    const figures = await page.evaluate(async () => {
      const m = await import('/pkg-migrate/trainer_v2_migrate.js');
      await m.default();
      const text = await (await fetch('/_bench/1mb.yaml')).text();
      const call = () => {
        const t0 = performance.now();
        const out = m.migrate(text);
        const ms = performance.now() - t0;
        if (!out.includes('TrainJob')) throw new Error('did not convert');
        return ms;
      };
      const firstMs = call();
      let bestMs = Infinity;
      for (let i = 0; i < 3; i++) bestMs = Math.min(bestMs, call());
      return { bytes: text.length, firstMs, bestMs };
    });
    await context.close();
    bytes = figures.bytes;
    perPage.push({ firstMs: figures.firstMs, bestMs: figures.bestMs });
  }
  const bests = perPage.map((p) => p.bestMs);
  return {
    bytes,
    pages: perPage,
    ms: pct(bests, 50),
    lowestMs: Math.min(...bests),
    highestMs: Math.max(...bests),
    firstMs: pct(perPage.map((p) => p.firstMs), 50),
  };
}
