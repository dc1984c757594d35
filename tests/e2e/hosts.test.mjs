// The kits in the three real sites (scripts/build-hosts.sh builds copies of them from
// $TRAINER_HOSTS with each kit copied in, into dist/hosts/), in headless Chromium. Each site is
// served at its own root, as it is published, on one page at least one folder deep.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { launch, nextFrames, rendered, tabThroughWidgets } from './helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOSTS = path.resolve(ROOT, process.env.TRAINER_HOSTS ?? '../shared/hosts');
const MOUNT = '[data-trainer-v2-explorer]';
const FULL = `${MOUNT}:not([data-compact])`;
const MOUNTED = `${FULL}[data-trainer-v2-explorer-mounted]`;

/** Each site, the page the widget is on, and how a reader switches the site's theme. */
const SITES = [
  {
    name: 'kubeflow-blog',
    page: 'trainer/v2-explorer/',
    // The blog has no theme switch; the kit pins the blog's light look.
    themes: [{ expect: 'light', colorScheme: 'dark' }],
  },
  {
    name: 'trainer-docs',
    page: 'operator-guides/migration.html',
    // Furo's button cycles body[data-theme]; the widget follows it, and the OS under "auto".
    themes: [
      { expect: 'dark', colorScheme: 'dark' },
      { expect: 'light', colorScheme: 'dark', set: (page) => furoTheme(page, 'light') },
      { expect: 'dark', colorScheme: 'light', set: (page) => furoTheme(page, 'dark') },
    ],
  },
  {
    name: 'kubeflow-website',
    page: 'docs/components/trainer/overview/',
    // Docsy's Light/Dark menu sets html[data-theme].
    themes: [
      { expect: 'light', colorScheme: 'light' },
      { expect: 'dark', colorScheme: 'light', set: (page) => docsyTheme(page, 'Dark') },
      { expect: 'light', colorScheme: 'dark', set: (page) => docsyTheme(page, 'Light') },
    ],
  },
];

async function furoTheme(page, want) {
  // The header's button, as a reader clicks it, until it shows the theme wanted.
  for (let i = 0; i < 3 && (await page.evaluate(() => document.body.dataset.theme)) !== want; i++) {
    await page.locator('.theme-toggle:visible').first().click();
  }
  assert.equal(await page.evaluate(() => document.body.dataset.theme), want);
}

async function docsyTheme(page, label) {
  // The menu's own item (its dropdown needs jQuery from a CDN, which this offline copy lacks).
  await page.evaluate((value) => document.querySelector(`.dropdown-menu [data-theme-value="${value}"]`).click(), label.toLowerCase());
}

let browser;
const servers = [];
// Each site's server, on a free port: its origin is read from the line serve.py prints once it listens.
const origins = [];
const origin = (i) => origins[i];

before(async () => {
  // The host copies are test data this suite cannot do without: a missing one fails, loudly.
  for (const { name } of SITES) {
    assert.ok(existsSync(path.join(HOSTS, name)), `no copy of ${name} in ${HOSTS}: set TRAINER_HOSTS`);
    assert.ok(existsSync(path.join(ROOT, 'dist/hosts', name)), `dist/hosts/${name} is missing: run make hosts`);
  }
  for (const [i, { name }] of SITES.entries()) {
    const server = spawn('python3', [path.join(ROOT, 'scripts/serve.py'), '--dir', path.join(ROOT, 'dist/hosts', name), '--port', '0'], {
      env: { ...process.env, QUIET: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    servers.push(server);
    const line = await new Promise((resolve, reject) => {
      server.stdout.once('data', (chunk) => resolve(String(chunk)));
      server.once('exit', (code) => reject(new Error(`serve.py for ${name} exited (${code}) before listening`)));
    });
    origins[i] = line.match(/on (http:\/\/127\.0\.0\.1:\d+)\//)[1];
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const s of servers) s.kill();
});

/** A page of one site that records what a reader would not want: our errors, foreign requests. */
async function open(i, { javaScript = true, colorScheme = 'light', width = 1280, height = 800, blockOurs = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: javaScript, colorScheme });
  const page = await context.newPage();
  const log = { errors: [], foreign: [] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (blockOurs && url.includes('/trainer-v2-explorer/')) return route.abort();
    if (url.startsWith(origin(i) + '/') || url.startsWith('data:')) return route.continue();
    log.foreign.push(url);
    return route.abort();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      const where = m.location().url ?? '';
      if (where.includes('trainer-v2-explorer') || /trainer v2 explorer|wasm/i.test(m.text())) log.errors.push(`${m.text()} ${where}`);
    }
  });
  // The host's own scripts fail too (their CDN is out of reach here): only ours count.
  page.on('pageerror', (e) => {
    if (/trainer-v2-explorer|wasm/i.test(e.stack ?? e.message)) log.errors.push(`uncaught: ${e.message}`);
  });
  page.on('response', (r) => {
    if (r.url().includes('trainer-v2-explorer') && r.status() >= 400) log.errors.push(`${r.status()} ${r.url()}`);
  });
  return { context, page, log, url: (fragment = '') => `${origin(i)}/${SITES[i].page}${fragment}` };
}

/** Waits until the main widget has drawn: the mount mark comes as mount returns, and Yew's first
 * render a task or more later (later still when its scheduler yields on a loaded machine), so a
 * test that reads or clicks inside the shadow root, or measures what the render moves, waits for
 * the rendered root. */
const waitMounted = (page) => page.waitForSelector(rendered(FULL), { timeout: 20000, state: 'attached' });

/** The ids of the headings just before and just after the main widget. */
const headingsAround = (page) =>
  page.evaluate((FULL) => {
    const widget = document.querySelector(FULL);
    const headings = [...document.querySelectorAll('h1[id], h2[id], h3[id], h4[id], section[id] > :is(h1, h2, h3, h4)')];
    const idOf = (h) => h.id || h.parentElement.id;
    const before = headings.filter((h) => widget.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_PRECEDING).pop();
    const after = headings.find((h) => widget.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { before: before && idOf(before), after: after && idOf(after) };
  }, FULL);

for (const [i, site] of SITES.entries()) {
  test(`${site.name}: the widget mounts on scroll, with no error of ours and no request leaving the site`, async () => {
    const { context, page, log, url } = await open(i);
    await page.goto(url());
    const below = await page.evaluate((FULL) => document.querySelector(FULL).getBoundingClientRect().top - innerHeight, FULL);
    if (below > 700) {
      await page.waitForLoadState('load');
      await nextFrames(page); // the loader's IntersectionObserver has had its first callback
      assert.equal(await page.locator(MOUNTED).count(), 0, 'mounted before the reader came near it');
    }
    await page.locator(FULL).scrollIntoViewIfNeeded();
    await waitMounted(page);
    // The page's other mount points too (the blog post has several).
    const mounts = page.locator(MOUNT);
    for (let n = 0; n < (await mounts.count()); n++) {
      await mounts.nth(n).scrollIntoViewIfNeeded();
      await page.waitForFunction(([MOUNT, n]) => document.querySelectorAll(MOUNT)[n].hasAttribute('data-trainer-v2-explorer-mounted'), [MOUNT, n]);
    }
    // The converter's module loads in migrate mode: it must come from the site too.
    await page.evaluate((FULL) => document.querySelector(FULL).shadowRoot.querySelector('.mode [data-value="migrate"]').click(), FULL);
    await page.waitForFunction((FULL) => document.querySelector(FULL).shadowRoot.querySelector('#m-input'), FULL);
    await page.evaluate((FULL) => {
      const area = document.querySelector(FULL).shadowRoot.querySelector('#m-input');
      area.value = 'apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: t\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: x\n';
      area.dispatchEvent(new InputEvent('input', { bubbles: true }));
    }, FULL);
    await page.waitForFunction((FULL) => document.querySelector(FULL).shadowRoot.querySelector('.migrate-result')?.textContent.includes('TrainJob'), FULL, { timeout: 20000 });
    assert.deepEqual(log.errors, []);
    // The site itself asks for fonts, analytics or comments elsewhere; the widget adds nothing.
    await page.waitForLoadState('networkidle');
    await context.close();
    const host = await open(i, { blockOurs: true });
    await host.page.goto(url());
    await host.page.locator(FULL).scrollIntoViewIfNeeded();
    await host.page.waitForLoadState('networkidle');
    await host.context.close();
    const ours = log.foreign.filter((u) => !host.log.foreign.includes(u));
    assert.deepEqual(ours, [], 'requests that left the site because of the widget');
  });

  test(`${site.name}: a "What Kubernetes runs" figure on the page highlights its item's YAML lines`, async (t) => {
    const { context, page, log, url } = await open(i);
    await page.goto(url());
    const preset = page.locator('figure.k8s-preset').first();
    if ((await preset.count()) === 0) {
      await context.close();
      return t.skip('this page embeds no preset');
    }
    await preset.locator('.k8s-hint').waitFor({ state: 'visible', timeout: 15000 });
    const item = preset.locator('.k8s-items [data-src]').first();
    await item.scrollIntoViewIfNeeded();
    await item.hover();
    // The lines the item names (data-src "t:N r:M") are the ones lit, in the figure's own YAML.
    const { wanted, lit } = await preset.evaluate((figure) => {
      const first = figure.querySelector('.k8s-items [data-src]');
      return {
        wanted: first.dataset.src.split(' ').filter(Boolean).sort(),
        lit: [...figure.querySelectorAll('.k8s-yaml figure')].flatMap((fig) =>
          [...fig.querySelectorAll('.ln.hl')].map((ln) => `${fig.dataset.doc}:${[...fig.querySelectorAll('.ln')].indexOf(ln) + 1}`),
        ).sort(),
      };
    });
    assert.ok(wanted.length > 0, 'the item names no line');
    assert.deepEqual(lit, wanted);
    assert.deepEqual(log.errors, []);
    await context.close();
  });

  test(`${site.name}: keys typed in the widget stay in the widget`, async () => {
    const { context, page, log, url } = await open(i);
    await page.goto(url());
    await page.locator(FULL).scrollIntoViewIfNeeded();
    await waitMounted(page);
    // The widget writes its selection into the query; a host shortcut would change the page.
    const start = new URL(page.url()).pathname;
    const here = () => new URL(page.url()).pathname;
    const inWidget = (selector) => page.locator(FULL).locator(selector);
    // Arrows on a framework radio move the selection, and nothing else.
    const framework = () => page.evaluate((FULL) => document.querySelector(FULL).shadowRoot.querySelector('.framework [aria-checked="true"]').dataset.value, FULL);
    const before = await framework();
    await inWidget('.framework [aria-checked="true"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(([FULL, before]) => document.querySelector(FULL).shadowRoot.querySelector('.framework [aria-checked="true"]').dataset.value !== before, [FULL, before], { timeout: 5000 }).catch(() => {});
    assert.notEqual(await framework(), before, 'ArrowRight moved to the next framework');
    assert.equal(here(), start, 'ArrowRight on a radio left the page');
    await page.keyboard.press('ArrowLeft');
    // Arrows and shortcut letters in the text fields.
    for (const [id, text] of [['#p-name', 'my-job'], ['#p-image', 'pytorch/pytorch:2.5']]) {
      const field = inWidget(id);
      await field.click();
      await field.press('End');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await field.fill('');
      await page.keyboard.type(text);
      await nextFrames(page);
      assert.equal(await field.inputValue(), text, `${id} got every key`);
      assert.equal(here(), start, `keys in ${id} left the page`);
      const focusedOutside = await page.evaluate(() => document.activeElement?.matches('input, textarea') ?? false);
      assert.equal(focusedOutside, false, `the host page took focus while typing in ${id}`);
    }
    // The text area of migrate mode: '/', '?', letters and arrows.
    await inWidget('.mode [data-value="migrate"]').click();
    const area = inWidget('#m-input');
    await area.fill('');
    await area.click();
    const yaml = 'kind: PyTorchJob / n? s';
    await page.keyboard.type(yaml);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    assert.equal(await area.inputValue(), yaml);
    assert.equal(here(), start);
    assert.deepEqual(log.errors, []);
    await context.close();
  });

  test(`${site.name}: without JavaScript the fallback is styled, panes side by side at 1,280 px`, async () => {
    const { context, page, url } = await open(i, { javaScript: false });
    await page.goto(url());
    const look = await page.evaluate((FULL) => {
      const mount = document.querySelector(FULL);
      const fallback = mount.querySelector('.tv2x-fallback');
      const panes = [...mount.querySelectorAll('.tv2x-pane')].map((p) => p.getBoundingClientRect());
      const key = mount.querySelector('.t-k');
      const owned = mount.querySelector('.ln.o');
      return {
        border: getComputedStyle(fallback).borderTopWidth,
        panes: panes.map((r) => ({ top: Math.round(r.top), left: Math.round(r.left), width: Math.round(r.width) })),
        keyColour: getComputedStyle(key).color,
        textColour: getComputedStyle(fallback).color,
        owned: owned ? getComputedStyle(owned).backgroundColor : null,
        styleAttributes: mount.querySelectorAll('[style]').length,
      };
    }, FULL);
    assert.equal(look.border, '1px');
    assert.equal(look.panes.length, 2);
    assert.equal(look.panes[0].top, look.panes[1].top, 'the panes sit side by side');
    assert.ok(look.panes[1].left > look.panes[0].left + look.panes[0].width - 1, JSON.stringify(look.panes));
    assert.ok(look.panes.every((p) => p.width > 250), JSON.stringify(look.panes));
    assert.notEqual(look.keyColour, look.textColour, 'YAML keys are coloured');
    if (look.owned !== null) assert.notEqual(look.owned, 'rgba(0, 0, 0, 0)', 'infrastructure lines are marked');
    assert.equal(look.styleAttributes, 0, 'no inline style attribute (strict CSP)');
    await context.close();
  });

  test(`${site.name}: jumping to the widget shifts nothing (CLS 0)`, async () => {
    const first = await open(i);
    await first.page.goto(first.url());
    const { before } = await headingsAround(first.page);
    await first.context.close();
    assert.ok(before, 'a heading above the widget');
    const { context, page, log, url } = await open(i);
    // Shifts of the widget or of what follows it; the host's own (its navbar settling) are not
    // ours. Nor is one from before the widget's element was parsed: Docsy's body moved by
    // 0.006 there once, in one run of four, with nothing of ours on the page yet.
    await page.addInitScript((FULL) => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        const widget = document.querySelector(FULL);
        for (const e of list.getEntries()) {
          const moved = e.sources.map((s) => s.node).filter(Boolean);
          const ours = moved.filter((n) => n === widget || widget?.contains(n) || widget?.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING);
          if (!e.hadRecentInput && ours.length) window.__shifts.push({ value: e.value, nodes: moved.map((n) => `${n.nodeName}.${n.className}`) });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    }, FULL);
    await page.goto(url(`#${before}`));
    await waitMounted(page);
    await page.waitForLoadState('networkidle');
    await nextFrames(page); // layout-shift entries are reported after the frame they happened in
    const shifts = await page.evaluate(() => window.__shifts);
    const cls = shifts.reduce((sum, s) => sum + s.value, 0);
    assert.equal(cls, 0, JSON.stringify(shifts));
    assert.deepEqual(log.errors, []);
    await context.close();
  });

  test(`${site.name}: a link to the heading below the widget lands at that heading`, async () => {
    const first = await open(i);
    await first.page.goto(first.url());
    const { after } = await headingsAround(first.page);
    await first.context.close();
    assert.ok(after, 'a heading below the widget');
    const { context, page, url } = await open(i);
    await page.goto(url(`#${after}`));
    await waitMounted(page);
    // Each mount puts the fragment back in place (www/explorer.js): wait for the heading there.
    await page
      .waitForFunction((id) => { const top = document.getElementById(id).getBoundingClientRect().top; return top >= -1 && top < 160; }, after, { timeout: 5000 })
      .catch(() => {});
    const top = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().top, after);
    assert.ok(top >= -1 && top < 160, `the heading is at ${top} px from the top of the window`);
    await context.close();
  });

  for (const width of [1280, 390]) {
    test(`${site.name}: at ${width} px a shared link lands with the widget's first row below the site's fixed header`, async () => {
      const { context, page, url } = await open(i, { width, height: 844 });
      // A shared link: the widget's own keys, no fragment (www/explorer.js lands on the widget).
      await page.goto(url('?persona=data-scientist&framework=pytorch'));
      await waitMounted(page);
      await page.waitForLoadState('load');
      // Each mount puts the landing back in place (www/explorer.js): wait for the widget there.
      await page
        .waitForFunction((FULL) => Math.abs(document.querySelector(FULL).getBoundingClientRect().top) < 200, FULL, { timeout: 5000 })
        .catch(() => {});
      await nextFrames(page);
      const seen = await page.evaluate((FULL) => {
        const widget = document.querySelector(FULL);
        const first = widget.shadowRoot.querySelector('.control, .mode, [role="radiogroup"]') ?? widget;
        // The host's bars fixed or stuck at the top of the window, where they cover the page.
        const bars = [...document.querySelectorAll('body *')]
          .filter((e) => /fixed|sticky/.test(getComputedStyle(e).position) && !widget.contains(e))
          .map((e) => e.getBoundingClientRect())
          .filter((b) => b.height > 0 && b.width > innerWidth / 2 && b.top < innerHeight / 2 && b.bottom < innerHeight / 2)
          .sort((a, b) => a.top - b.top);
        // The bars stacked from the window's top (Furo's header under its announcement).
        let header = 0;
        for (const b of bars) if (b.top <= header + 4) header = Math.max(header, b.bottom);
        return { row: first.getBoundingClientRect().top, header };
      }, FULL);
      assert.ok(seen.row >= seen.header && seen.row < seen.header + 200, `the widget's first row is at ${seen.row} px, the header ends at ${seen.header} px`);
      await context.close();
    });
  }

  test(`${site.name}: the widget's theme follows the site's`, async () => {
    for (const step of site.themes) {
      const { context, page, url } = await open(i, { colorScheme: step.colorScheme });
      await page.goto(url());
      await page.locator(FULL).scrollIntoViewIfNeeded();
      await waitMounted(page);
      if (step.set) await step.set(page);
      await page
        .waitForFunction(([FULL, dark]) => document.querySelector(FULL).shadowRoot.querySelector('.tv2x').classList.contains('dark') === dark, [FULL, step.expect === 'dark'], { timeout: 5000 })
        .catch(() => {});
      const theme = await page.evaluate((FULL) => (document.querySelector(FULL).shadowRoot.querySelector('.tv2x').classList.contains('dark') ? 'dark' : 'light'), FULL);
      assert.equal(theme, step.expect, `OS ${step.colorScheme}, ${step.set ? 'after the switch' : 'no switch'}`);
      await context.close();
    }
  });
  test(`${site.name}: Tab from the top of the page walks into the widget`, async () => {
    const { context, page, log, url } = await open(i);
    // The module arrives once the keyboard reader has reached the fallback (a reader faster than
    // the download, made certain rather than left to the machine's speed).
    let release;
    const arrived = new Promise((r) => (release = r));
    await context.route('**/pkg/*_bg.wasm', async (route) => {
      await arrived;
      await route.continue();
    });
    await page.goto(url());
    const { total, reached, lost } = await tabThroughWidgets(page, MOUNT, { onFallback: release, limit: 1500 });
    release();
    assert.deepEqual(reached, [...Array(total).keys()], `widgets Tab reached: ${reached.join(', ')} of ${total}; ${lost.join('; ')}`);
    assert.deepEqual(lost, []);
    assert.deepEqual(log.errors, []);
    await context.close();
  });

  test(`${site.name}: at 390 px nothing on the page scrolls sideways`, async () => {
    const { context, page, url } = await open(i, { width: 390, height: 844 });
    await page.goto(url());
    const mounts = page.locator(MOUNT);
    for (let n = 0; n < (await mounts.count()); n++) {
      await mounts.nth(n).scrollIntoViewIfNeeded();
      await page.waitForFunction(([MOUNT, n]) => document.querySelectorAll(MOUNT)[n].hasAttribute('data-trainer-v2-explorer-mounted'), [MOUNT, n]);
    }
    // What is wider than the window, outside any box that scrolls on its own (a code block).
    const wide = await page.evaluate(() => {
      const scrolls = (el) => {
        for (let p = el.parentElement; p; p = p.parentElement) {
          if (/auto|scroll|hidden/.test(getComputedStyle(p).overflowX) && p !== document.documentElement && p !== document.body) return true;
        }
        return false;
      };
      return {
        page: document.documentElement.scrollWidth,
        wider: [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > innerWidth + 1 && el.checkVisibility() && !scrolls(el))
          .map((el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${String(el.className?.baseVal ?? el.className).split(' ')[0]} right ${Math.round(el.getBoundingClientRect().right)} px`)
          .slice(0, 8),
      };
    });
    assert.ok(wide.page <= 390, `the page is ${wide.page} px wide: ${wide.wider.join(', ')}`);
    await context.close();
  });
}

// The blog's post layout runs jekyll-toc over the post: its table of contents lists every heading
// of the HTML, so the kit's fallbacks and figures must add none, and every entry must lead to a
// heading the reader sees.
test('kubeflow-blog: every entry of the post\'s table of contents leads to a heading of the post the reader sees', async () => {
  const i = SITES.findIndex((s) => s.name === 'kubeflow-blog');
  const { context, page, url } = await open(i);
  await page.goto(url());
  const mounts = page.locator(MOUNT);
  for (let n = 0; n < (await mounts.count()); n++) {
    await mounts.nth(n).scrollIntoViewIfNeeded();
    await page.waitForFunction(([MOUNT, n]) => document.querySelectorAll(MOUNT)[n].hasAttribute('data-trainer-v2-explorer-mounted'), [MOUNT, n]);
  }
  const entries = await page.evaluate((MOUNT) =>
    [...document.querySelectorAll('.section-nav a[href^="#"]')].map((a) => {
      const target = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
      return {
        text: a.textContent.trim(),
        found: Boolean(target),
        seen: Boolean(target?.checkVisibility()) && (target?.getClientRects().length ?? 0) > 0,
        ours: Boolean(target?.closest(`${MOUNT}, figure`)),
      };
    }),
  MOUNT);
  assert.ok(entries.length >= 10, `${entries.length} entries`);
  const dead = entries.filter((e) => !e.found || !e.seen || e.ours).map((e) => e.text);
  assert.deepEqual(dead, [], `${dead.length} of ${entries.length} entries lead nowhere the reader sees, or into a widget or figure`);
  await context.close();
});

// Copying a kit onto a site must publish nothing but the widget: its INSTALL.md is for the
// maintainer (Jekyll copies any file without front matter as it is).
test('no site publishes the kit\'s INSTALL.md', async () => {
  for (const [i, site] of SITES.entries()) {
    const status = await fetch(`${origin(i)}/INSTALL.md`).then((r) => r.status);
    assert.equal(status, 404, `${site.name} serves /INSTALL.md`);
  }
});
