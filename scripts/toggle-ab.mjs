// Toggle times of two or more builds side by side, in one session: this machine's speed drifts
// from day to day, so figures from different days do not compare. How BENCHMARKS.md's rows "in
// one session" were taken (scripts/bench.mjs, SAME_SESSION).
//
//   node scripts/toggle-ab.mjs URL_A URL_B [...]
//
// Each URL is a built site's post (a dist/ served as it is). Rounds are interleaved (A, B, A, B…),
// each a fresh page and 200 toggles of the loop bench.mjs uses (scripts/toggle-loop.mjs). Env:
// ROUNDS (default 8); PATTERN: back-and-forth, round-unprepared or round-reader (default
// back-and-forth); PAIR (default jax,pytorch) or ROUND (default every framework), comma lists of
// framework ids. Prints each round's median, then each URL's median and p95 over all its toggles.
import { MAIN_WIDGET, pct, toggleTimes, abCommandLine } from './toggle-loop.mjs';

const { chromium, urls, rounds } = abCommandLine('toggle-ab.mjs', 2, 'URL_A URL_B [...]', 8);
const pattern = process.env.PATTERN ?? 'back-and-forth';
const options = {
  ...(process.env.PAIR && { pair: process.env.PAIR.split(',') }),
  ...(process.env.ROUND && { round: process.env.ROUND.split(',') }),
};
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const all = new Map(urls.map((u) => [u, []]));
try {
  for (let r = 0; r < rounds; r++) {
    for (const url of urls) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(new URL('#user-experience', url).href);
        await page.waitForSelector(`${MAIN_WIDGET}[data-trainer-v2-explorer-mounted]`);
        const times = await toggleTimes(page, pattern, options);
        all.get(url).push(...times);
        console.log(`round ${r} ${url} median ${pct(times, 50).toFixed(2)} ms`);
      } finally {
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
}
for (const [url, times] of all) {
  console.log(`${pattern} ${url}: median ${pct(times, 50).toFixed(2)} ms, p95 ${pct(times, 95).toFixed(2)} ms over ${times.length}`);
}
