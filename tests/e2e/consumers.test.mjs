// The npm package in the sites that install it (tests/consumers, built from dist/npm's tarball
// by scripts/build-consumers.sh into target/consumers): a plain HTML page, a Vite app (its build
// and its dev server) and a Docusaurus 3 site, in headless Chromium (playwright-core) and headless
// Firefox ESR (geckodriver, tests/e2e/webdriver.mjs). Each built site is served here under a
// strict Content-Security-Policy ('wasm-unsafe-eval' for the wasm, no inline script but the
// hashes of the site's own, no inline style) whose violation reports come back to the server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './helpers.mjs';
import { startGeckodriver } from './webdriver.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = path.join(ROOT, 'target/consumers');
const AXE = readFileSync(process.env.AXE_CORE ?? path.join(path.dirname(process.env.PLAYWRIGHT_CORE ?? ''), 'axe-core/axe.min.js'), 'utf8');
const EL = 'trainer-v2-explorer';
const MOUNTED = `${EL}[data-trainer-v2-explorer-mounted]`;

/** Each built site, its pages, and the options its first page's element starts with. */
const SITES = [
  { name: 'html', dir: 'html', page: '/', persona: 'platform-engineer', framework: 'deepspeed' },
  { name: 'vite', dir: 'vite/dist', page: '/', persona: 'data-scientist', framework: 'jax' },
  { name: 'docusaurus', dir: 'docusaurus/build', page: '/', persona: 'data-scientist', framework: 'jax' },
];

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.xml': 'application/xml', '.txt': 'text/plain', '.ico': 'image/x-icon', '.png': 'image/png' };

/** A static server for one built site: its own origin, a strict CSP that allows the site's own
 * inline scripts by hash (Docusaurus has two; the element needs none), and a report endpoint. */
function serve(dir) {
  const reports = [];
  const waiting = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/__csp-report') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        reports.push(body);
        for (const w of waiting) if (body.includes(w.marker)) w.resolve();
        res.end();
      });
      return;
    }
    let file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file)) return res.writeHead(404).end('not found');
    let body = readFileSync(file);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const headers = { 'content-type': type, 'cache-control': 'no-cache' };
    if (type === 'text/html') {
      // The site's own inline scripts and style attributes (Docusaurus: its theme and SVG
      // sprite), each allowed by its hash; the element needs neither.
      const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      const html = String(body);
      const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, code]) => hash(code));
      const styles = [...html.matchAll(/\sstyle="([^"]*)"/g)].map(([, css]) => hash(css));
      headers['content-security-policy'] =
        `default-src 'self'; script-src 'self' 'wasm-unsafe-eval' ${scripts.join(' ')}; ` +
        `style-src 'self'${styles.length ? ` 'unsafe-hashes' ${styles.join(' ')}` : ''}; img-src 'self' data:; report-uri /__csp-report`;
    }
    res.writeHead(200, headers).end(body);
  });
  /** Resolves once a report naming `marker` has arrived. */
  const reportNaming = (marker) =>
    reports.some((r) => r.includes(marker)) ? Promise.resolve() : new Promise((resolve) => waiting.push({ marker, resolve }));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${server.address().port}`, reports, reportNaming, close: () => server.close() })),
  );
}

let sentinels = 0;

/** The CSP reports of `site`'s page other than the sentinel's: `trigger(host)` makes the page
 * break its CSP once on purpose, by fetching from http://`host`/ (connect-src is 'self'). The
 * browser sends each report when its violation happens, so once the sentinel's report is in,
 * every earlier violation's report is in too: no wait on the clock. A page that never reports
 * fails here, after 10 s, rather than passing with an empty list. */
async function reportsAfterSentinel(site, trigger) {
  const server = servers[site.name];
  const marker = `csp-sentinel-${++sentinels}.invalid`;
  await trigger(marker);
  let timer;
  const deadline = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no CSP report for the sentinel ${marker}: the page sends none`)), 10000)));
  await Promise.race([server.reportNaming(marker), deadline]).finally(() => clearTimeout(timer));
  return server.reports.filter((r) => !/csp-sentinel-\d+\.invalid/.test(r));
}

/** The page-side half of the sentinel: a fetch the CSP blocks (its rejection is expected). */
const FETCH_SENTINEL = (host) => {
  fetch(`http://${host}/`).catch(() => {});
};

let browser;
let gecko;
const servers = {};
let viteDev;

before(async () => {
  for (const site of SITES) {
    const dir = path.join(WORK, site.dir);
    assert.ok(existsSync(dir), `${dir} is missing: run make consumers`);
    servers[site.name] = await serve(dir);
  }
  // The Vite dev server, serving the package from node_modules as published (the case where
  // other packages' wasm URLs break).
  viteDev = await new Promise((resolve, reject) => {
    const proc = spawn('node_modules/.bin/vite', ['--host', '127.0.0.1', '--port', '0', '--strictPort=false'], {
      cwd: path.join(WORK, 'vite'),
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const url = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (url) resolve({ origin: url[0].slice(0, -1), proc });
    });
    proc.once('exit', (code) => reject(new Error(`vite exited (${code}): ${out}`)));
  });
  browser = await launch();
  gecko = await startGeckodriver();
});

after(async () => {
  await browser?.close();
  gecko?.stop();
  viteDev?.proc.kill();
  for (const s of Object.values(servers)) s.close();
});

/** A Chromium page that records what must not happen: errors, CSP violations, foreign requests. */
async function chromiumPage(origin, options = {}) {
  const context = await browser.newContext(options);
  const log = { errors: [], foreign: [], workers: [] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin + '/') || url.startsWith('data:')) return route.continue();
    log.foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && log.errors.push(m.text()));
  page.on('worker', (w) => log.workers.push(w.url()));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    window.__changes = [];
    document.addEventListener('change', (e) => e.target.localName === 'trainer-v2-explorer' && window.__changes.push(e.detail));
    // The widget instances alive: each listens on window for the others' changes.
    window.__instances = 0;
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    EventTarget.prototype.addEventListener = function (type, ...rest) {
      if (this === window && type === 'trainer-v2-explorer:change') window.__instances++;
      return add.call(this, type, ...rest);
    };
    EventTarget.prototype.removeEventListener = function (type, ...rest) {
      if (this === window && type === 'trainer-v2-explorer:change') window.__instances--;
      return remove.call(this, type, ...rest);
    };
  });
  return { context, page, log };
}

// The first element of the page (the plain HTML page has a second, compact one).
const first = (page) => page.locator(EL).first();
const checked = (page, group) => first(page).locator(`.${group} [aria-checked="true"]`).getAttribute('data-value');

/** The checks every site gets in Chromium; `url` is the page's address. */
async function chromiumChecks(site, origin, { csp = true } = {}) {
  const { page, log } = await chromiumPage(origin);
  if (csp) servers[site.name].reports.length = 0;
  await page.goto(origin + site.page);
  await page.waitForSelector(MOUNTED, { timeout: 20000 });
  assert.equal(await checked(page, 'persona'), site.persona, 'the persona attribute');
  assert.equal(await checked(page, 'framework'), site.framework, 'the framework attribute');

  // Mouse: a framework; the page hears a change event with the selection.
  await first(page).locator('.framework [data-value="pytorch"]').click();
  await page.waitForFunction(() => window.__changes.at(-1)?.framework === 'pytorch');
  assert.equal(await page.evaluate((EL) => document.querySelector(EL).framework, EL), 'pytorch', 'the framework property');
  assert.match(await first(page).locator('.v2').innerText(), /torch-distributed/);

  // Keyboard: the persona group is one tab stop; an arrow moves the selection.
  await first(page).locator('.persona [aria-checked="true"]').focus();
  const before = await checked(page, 'persona');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((before) => window.__changes.at(-1)?.persona !== before, before);
  assert.notEqual(await checked(page, 'persona'), before, 'ArrowRight picked the other persona');

  // An attribute set by the host page after mount re-renders the element.
  await page.evaluate((EL) => document.querySelector(EL).setAttribute('framework', 'xgboost'), EL);
  await page.waitForFunction((EL) => document.querySelector(EL).shadowRoot.querySelector('.framework [aria-checked="true"]')?.dataset.value === 'xgboost', EL);
  assert.match(await first(page).locator('.v2').innerText(), /xgboost/);

  // Migrate mode by attribute: the converter loads, and runs in its worker, under the CSP.
  await page.evaluate((EL) => document.querySelector(EL).setAttribute('mode', 'migrate'), EL);
  await page.waitForFunction((EL) => document.querySelector(EL).shadowRoot.querySelector('.migrate-result')?.textContent.includes('kind: TrainJob'), EL, { timeout: 20000 });
  // (Under its own name, or a bundler's chunk name; nothing else on these pages starts a worker.)
  assert.equal(log.workers.length, 1, `the converter ran in its worker: ${log.workers}`);
  assert.ok(log.workers[0].startsWith(origin + '/'), log.workers[0]);

  // axe, on the whole page with the element mounted (its shadow root included).
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(violations, [], 'axe');

  assert.deepEqual(log.foreign, [], 'requests that left the site');
  assert.deepEqual(log.errors, [], 'errors');
  if (csp) {
    assert.deepEqual(await reportsAfterSentinel(site, (host) => page.evaluate(FETCH_SENTINEL, host)), [], 'CSP reports');
    assert.deepEqual(await page.evaluate(() => window.__violations.filter((v) => !v.includes('csp-sentinel-'))), [], 'CSP violations');
  }
  return page;
}

for (const site of SITES) {
  test(`${site.name} in Chromium: mounts under a strict CSP, works by mouse and keyboard, follows its attributes, migrates in the worker, axe finds nothing`, async () => {
    await chromiumChecks(site, servers[site.name].origin);
  });

  test(`${site.name} in Chromium: without JavaScript the fallback shows`, async () => {
    const { page } = await chromiumPage(servers[site.name].origin, { javaScriptEnabled: false });
    await page.goto(servers[site.name].origin + site.page);
    const fallback = page.locator(`${EL} p`).first();
    assert.ok(await fallback.isVisible(), 'the fallback is visible');
    assert.match(await fallback.innerText(), /needs JavaScript/);
  });
}

test('html in Chromium: two elements share the selection, and a removed one is freed', async () => {
  const { origin } = servers.html;
  const { page, log } = await chromiumPage(origin);
  await page.goto(origin + '/');
  const elements = page.locator(EL);
  assert.equal(await elements.count(), 2);
  for (let i = 0; i < 2; i++) {
    await elements.nth(i).scrollIntoViewIfNeeded();
    await page.waitForFunction((i) => document.querySelectorAll('trainer-v2-explorer')[i].hasAttribute('data-trainer-v2-explorer-mounted'), i);
  }
  assert.equal(await page.evaluate(() => window.__instances), 2);
  // The second's own `change` events; its host answers each by setting the option it heard,
  // as a page that mirrors the element's state in its attributes does (a loop would show as
  // events beyond the two choices below).
  await page.evaluate(() => {
    window.__second = [];
    const second = document.querySelectorAll('trainer-v2-explorer')[1];
    second.addEventListener('change', (e) => {
      window.__second.push(e.detail.framework);
      second.setAttribute('framework', e.detail.framework);
    });
  });
  // A choice in the first reaches the second (both share everything: no sync attribute), and
  // the second fires `change` for what it now shows (issue 33), bubbling out of its tree.
  await elements.nth(0).locator('.framework [data-value="mlx"]').click();
  await page.waitForFunction(() => document.querySelectorAll('trainer-v2-explorer')[1].shadowRoot.querySelector('.framework [aria-checked="true"]')?.dataset.value === 'mlx');
  await page.waitForFunction(() => window.__second.length === 1);
  await elements.nth(0).locator('.framework [data-value="xgboost"]').click();
  await page.waitForFunction(() => window.__second.length >= 2);
  assert.deepEqual(await page.evaluate(() => window.__second), ['mlx', 'xgboost'], 'one change per shared choice, none echoed');
  assert.deepEqual(
    (await page.evaluate(() => window.__changes)).slice(-2).map((d) => d.framework),
    ['xgboost', 'xgboost'],
    'the document hears both elements (the clicked one, then the receiving one)',
  );
  // Removed, the second stops listening; the first works on.
  await page.evaluate(() => (window.__gone = document.querySelectorAll('trainer-v2-explorer')[1]).remove());
  await page.waitForFunction(() => window.__instances === 1);
  assert.equal(await page.evaluate(() => Boolean(window.__gone.shadowRoot.querySelector('.tv2x'))), false, 'its app is destroyed');
  await elements.nth(0).locator('.framework [data-value="jax"]').click();
  await page.waitForFunction(() => window.__changes.at(-1)?.framework === 'jax');
  assert.deepEqual(log.errors, []);
});

test('vite dev server in Chromium: the element finds its wasm and its worker', async () => {
  const site = SITES.find((s) => s.name === 'vite');
  await chromiumChecks(site, viteDev.origin, { csp: false });
});

test('docusaurus in Chromium: navigating between the two pages on the client mounts each widget and leaves none behind', async () => {
  const { origin } = servers.docusaurus;
  const { page, log } = await chromiumPage(origin);
  await page.goto(origin + '/');
  await page.waitForSelector(MOUNTED);
  const alive = () => page.evaluate(() => ({ instances: window.__instances, elements: document.querySelectorAll('trainer-v2-explorer').length, mounted: document.querySelectorAll('[data-trainer-v2-explorer-mounted]').length }));
  assert.deepEqual(await alive(), { instances: 1, elements: 1, mounted: 1 });
  const documents = await page.evaluate(() => (window.__document = Math.random()));
  await page.evaluate((EL) => (window.__first = document.querySelector(EL)), EL);

  // To the migrate page by its link: a client-side route change, the same document.
  await page.getByRole('link', { name: 'migrate it' }).click();
  await page.waitForFunction(() => location.pathname === '/migrate');
  await page.waitForFunction((EL) => document.querySelector(EL)?.shadowRoot?.querySelector('.migrate-result')?.textContent.includes('kind: TrainJob'), EL, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.__document), documents, 'no page load happened');
  assert.deepEqual(await alive(), { instances: 1, elements: 1, mounted: 1 });
  assert.deepEqual(
    await page.evaluate(() => ({ connected: window.__first.isConnected, app: Boolean(window.__first.shadowRoot?.querySelector('.tv2x')) })),
    { connected: false, app: false },
    'the first page widget is gone',
  );
  await page.evaluate((EL) => (window.__second = document.querySelector(EL)), EL);

  // Back by its link, then forward and back with the browser's history.
  await page.getByRole('link', { name: 'the comparison' }).click();
  await page.waitForFunction(() => location.pathname === '/');
  await page.waitForSelector(MOUNTED);
  assert.deepEqual(await alive(), { instances: 1, elements: 1, mounted: 1 });
  assert.equal(await page.evaluate(() => Boolean(window.__second.shadowRoot?.querySelector('.tv2x'))), false);
  await page.goBack();
  await page.waitForFunction((EL) => document.querySelector(EL)?.shadowRoot?.querySelector('.migrate-result')?.textContent.includes('kind: TrainJob'), EL, { timeout: 20000 });
  assert.deepEqual(await alive(), { instances: 1, elements: 1, mounted: 1 });
  await page.goForward();
  await page.waitForFunction(() => location.pathname === '/');
  await page.waitForSelector(MOUNTED);
  assert.deepEqual(await alive(), { instances: 1, elements: 1, mounted: 1 });
  assert.equal(await page.evaluate(() => window.__document), documents, 'no page load happened');
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.foreign, []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
});

/** The same checks in Firefox ESR, through WebDriver. */
async function firefoxChecks(site, origin, { csp = true } = {}) {
  const ff = await gecko.session();
  try {
    servers[site.name] && (servers[site.name].reports.length = 0);
    await ff.goto(origin + site.page);
    await ff.waitFor((EL) => document.querySelector(EL).matches('[data-trainer-v2-explorer-mounted]') && document.querySelector(EL).shadowRoot.querySelector('.framework'), EL);
    const checkedIn = (group) => ff.run((EL, group) => document.querySelector(EL).shadowRoot.querySelector(`.${group} [aria-checked="true"]`)?.dataset.value, EL, group);
    assert.equal(await checkedIn('persona'), site.persona);
    assert.equal(await checkedIn('framework'), site.framework);
    await ff.run(() => {
      window.__changes = [];
      document.addEventListener('change', (e) => e.target.localName === 'trainer-v2-explorer' && window.__changes.push(e.detail));
    });

    // Mouse.
    await ff.click(await ff.inShadow(EL, '.framework [data-value="pytorch"]'));
    await ff.waitFor(() => window.__changes.at(-1)?.framework === 'pytorch');
    // Keyboard.
    await ff.run((EL) => document.querySelector(EL).shadowRoot.querySelector('.persona [aria-checked="true"]').focus(), EL);
    const before = await checkedIn('persona');
    await ff.press('ArrowRight');
    await ff.waitFor((before) => window.__changes.at(-1)?.persona && window.__changes.at(-1).persona !== before, before);
    // An attribute change re-renders.
    await ff.run((EL) => document.querySelector(EL).setAttribute('framework', 'xgboost'), EL);
    await ff.waitFor((EL) => document.querySelector(EL).shadowRoot.querySelector('.framework [aria-checked="true"]')?.dataset.value === 'xgboost', EL);
    // Migrate mode: the converter and its worker.
    await ff.run((EL) => document.querySelector(EL).setAttribute('mode', 'migrate'), EL);
    await ff.waitFor((EL) => document.querySelector(EL).shadowRoot.querySelector('.migrate-result')?.textContent.includes('kind: TrainJob'), EL);
    // Every resource the page fetched came from the site.
    const foreign = await ff.run((origin) => performance.getEntriesByType('resource').map((e) => e.name).filter((u) => !u.startsWith(origin + '/')), origin);
    assert.deepEqual(foreign, [], 'requests that left the site');
    // axe.
    await ff.run(new Function(AXE + ';'));
    const violations = await ff.runAsync(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => v.id));
    assert.deepEqual(violations, [], 'axe');
    if (csp) assert.deepEqual(await reportsAfterSentinel(site, (host) => ff.run(FETCH_SENTINEL, host)), [], 'CSP reports');
  } finally {
    await ff.close();
  }
}

for (const site of SITES) {
  test(`${site.name} in Firefox: mounts under a strict CSP, mouse and keyboard, attributes, migrate, axe`, async () => {
    await firefoxChecks(site, servers[site.name].origin);
  });

  test(`${site.name} in Firefox: without JavaScript the fallback shows`, async () => {
    const ff = await gecko.session({ prefs: { 'javascript.enabled': false } });
    try {
      await ff.goto(servers[site.name].origin + site.page);
      const fallback = await ff.post('/element', { using: 'css selector', value: `${EL} p` });
      const id = Object.values(fallback)[0];
      assert.equal(await ff.get(`/element/${id}/displayed`), true);
      assert.match(await ff.get(`/element/${id}/text`), /needs JavaScript/);
    } finally {
      await ff.close();
    }
  });
}

test('vite dev server in Firefox: the element finds its wasm and its worker', async () => {
  await firefoxChecks(SITES.find((s) => s.name === 'vite'), viteDev.origin, { csp: false });
});

test('docusaurus in Firefox: client-side navigation mounts each widget and leaves none behind', async () => {
  const ff = await gecko.session();
  try {
    const { origin } = servers.docusaurus;
    await ff.goto(origin + '/');
    await ff.waitFor(() => document.querySelector('[data-trainer-v2-explorer-mounted]'));
    await ff.run(() => (window.__first = document.querySelector('trainer-v2-explorer')));
    await ff.click(await ff.post('/element', { using: 'link text', value: 'migrate it' }));
    await ff.waitFor(() => document.querySelector('trainer-v2-explorer')?.shadowRoot?.querySelector('.migrate-result')?.textContent.includes('kind: TrainJob'));
    assert.deepEqual(
      await ff.run(() => ({ first: window.__first.isConnected || Boolean(window.__first.shadowRoot?.querySelector('.tv2x')), mounted: document.querySelectorAll('[data-trainer-v2-explorer-mounted]').length, path: location.pathname })),
      { first: false, mounted: 1, path: '/migrate' },
    );
    await ff.click(await ff.post('/element', { using: 'link text', value: 'the comparison' }));
    await ff.waitFor(() => location.pathname === '/' && document.querySelector('[data-trainer-v2-explorer-mounted]'));
    assert.equal(await ff.run(() => document.querySelectorAll('[data-trainer-v2-explorer-mounted]').length), 1);
  } finally {
    await ff.close();
  }
});
