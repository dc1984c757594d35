// What a reader copies from every code block of the built post (dist/), read in Chromium as
// innerText: the post's own figures, each widget's static fallback (JavaScript off) and the code
// inside each mounted widget's shadow root (JavaScript on, compare and migrate mode). No markup
// may show as text, no block may sit inside another, a Python block must compile and a YAML
// block must parse into Kubernetes objects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BASE, launch, mountAll, nodeModule, waitForConvertedTrainJob } from './helpers.mjs';

const YAML = nodeModule('yaml');
let browser;

before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

/**
 * Every <pre> in the document and in each mounted widget's shadow root, with a name a reader can
 * find (section, widget, caption), its language and how it is nested. Runs in the page.
 */
function collectBlocks() {
  const caption = (pre) => {
    const fig = pre.closest('figure');
    const cap = fig?.querySelector('figcaption .title') ?? fig?.querySelector('figcaption');
    return cap ? `"${cap.textContent.trim()}"` : 'a code block';
  };
  // The nearest h2/h3 before the element, as the reader sees the section.
  const section = (el) => {
    const headings = [...document.querySelectorAll('main h2, main h3')];
    let found = 'the top of the page';
    for (const h of headings) {
      if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) found = `"${h.firstChild?.textContent.trim()}"`;
    }
    return found;
  };
  const language = (pre) => {
    const fig = pre.closest('figure');
    for (const lang of ['python', 'yaml']) if (fig?.classList.contains(lang)) return lang;
    const code = pre.querySelector(':scope > code');
    const fenced = [...(code?.classList ?? [])].find((c) => c.startsWith('language-'));
    return fenced ? fenced.slice('language-'.length) : null;
  };
  const describe = (pre, where) => ({
    name: `${caption(pre)} in ${where}`,
    language: language(pre),
    text: pre.innerText,
    // The code itself, markup stripped: the rendered text must read as exactly this.
    source: pre.textContent,
    // A block inside another, or a paragraph, figure or table inside a block.
    nested: Boolean(pre.parentElement.closest('pre, code') || pre.querySelector('pre, p, figure, div, table')),
  });
  // A reader opens a fallback's "What Kubernetes runs" before copying from it; closed, its blocks
  // render no text.
  for (const details of document.querySelectorAll('[data-trainer-v2-explorer] details')) details.open = true;
  const blocks = [];
  for (const pre of document.querySelectorAll('pre')) {
    const mount = pre.closest('[data-trainer-v2-explorer]');
    const where = mount ? `the static fallback of the explorer under ${section(mount)}` : `section ${section(pre)}`;
    blocks.push(describe(pre, where));
  }
  const mounts = [...document.querySelectorAll('[data-trainer-v2-explorer]')];
  mounts.forEach((mount, i) => {
    if (!mount.shadowRoot) return;
    const label = `explorer ${i + 1} (${mount.dataset.persona}/${mount.dataset.framework}) under ${section(mount)}`;
    for (const pre of mount.shadowRoot.querySelectorAll('pre')) blocks.push(describe(pre, label));
  });
  return { blocks, mounts: mounts.length, mounted: mounts.filter((m) => m.shadowRoot).length };
}

// Escaped or literal markup: what a figure shows when its HTML was escaped or split.
const MARKUP = /<\/?(span|code|pre|p|figure|figcaption|div|a|em|strong)[\s>]|class="t-|&(lt|gt|amp|quot|#\d+);/;

/** Compiles every Python block in one python3 run; returns "name: error" lines. */
function pythonErrors(blocks) {
  const script = `
import json, sys
for b in json.load(sys.stdin):
    try:
        compile(b["text"], b["name"], "exec")
    except SyntaxError as e:
        print(f'{b["name"]}: line {e.lineno}: {e.msg}: {(e.text or "").strip()!r}')
`;
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(blocks), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').filter(Boolean);
}

/** Every YAML document a Kubernetes object: a mapping with apiVersion, kind and metadata.name. */
function yamlErrors({ name, text }) {
  const docs = YAML.parseAllDocuments(text);
  if (docs.length === 0) return [`${name}: no YAML document`];
  return docs.flatMap((doc, i) => {
    const where = `${name}, document ${i + 1}`;
    if (doc.errors.length) return [`${where}: ${doc.errors[0].message.split('\n')[0]}`];
    const obj = doc.toJS();
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [`${where}: not a mapping`];
    const missing = ['apiVersion', 'kind'].filter((k) => typeof obj[k] !== 'string' || !obj[k]);
    if (typeof obj.metadata?.name !== 'string' || !obj.metadata.name) missing.push('metadata.name');
    return missing.length ? [`${where}: no ${missing.join(', ')}`] : [];
  });
}

/**
 * Where the rendered text (innerText: what screen readers, drag and drop and host sites' copy
 * buttons read) differs from the code, line by line; null when they agree. A line element
 * rendered as a block, for one, makes the browser read every marked line with an empty line after
 * it, which YAML and Python both still parse.
 */
function renderedDifference({ text, source }) {
  const lines = (s) => s.replace(/\n$/, '').split('\n');
  const [shown, code] = [lines(text), lines(source)];
  const at = shown.findIndex((line, i) => line !== code[i]);
  if (at === -1 && shown.length === code.length) return null;
  const i = at === -1 ? Math.min(shown.length, code.length) : at;
  return `reads as ${shown.length} lines where the code has ${code.length}; line ${i + 1} reads ${JSON.stringify(shown[i] ?? '(nothing)')} where the code has ${JSON.stringify(code[i] ?? '(nothing)')}`;
}

/** Every problem a reader would meet copying these blocks, one line each. */
function problems(blocks, t) {
  const count = (lang) => blocks.filter((b) => b.language === lang).length;
  t.diagnostic(`${blocks.length} code blocks: ${count('python')} Python, ${count('yaml')} YAML`);
  const out = [];
  for (const b of blocks) {
    const markup = b.text.match(MARKUP);
    if (markup) out.push(`${b.name}: shows markup as text: ${JSON.stringify(b.text.slice(Math.max(0, markup.index - 30), markup.index + 40))}`);
    if (b.nested) out.push(`${b.name}: a code block sits inside another`);
    if (!b.text.trim()) out.push(`${b.name}: is empty`);
    const shown = renderedDifference(b);
    if (shown) out.push(`${b.name}: ${shown}`);
    if (b.language === null) out.push(`${b.name}: its language is not marked (figure class or language-*)`);
  }
  out.push(...pythonErrors(blocks.filter((b) => b.language === 'python')));
  for (const b of blocks.filter((b) => b.language === 'yaml')) out.push(...yamlErrors(b));
  return out;
}

async function open(path, javaScriptEnabled) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(new URL(path, BASE).href);
  return { page, context };
}

test('without JavaScript, every code block of the post reads as valid code', async (t) => {
  const { page, context } = await open('', false);
  const { blocks, mounts, mounted } = await page.evaluate(collectBlocks);
  assert.equal(mounted, 0);
  // Both panes of each fallback hold a block, and the post has its own figures besides.
  const inFallbacks = blocks.filter((b) => b.name.includes('static fallback')).length;
  assert.ok(inFallbacks >= 2 * mounts, `${inFallbacks} blocks in ${mounts} fallbacks`);
  assert.deepEqual(problems(blocks, t), []);
  for (const section of ['The Python SDK comes first', 'Your first TrainJob from Python']) {
    assert.ok(blocks.some((b) => b.language === 'python' && b.name.includes(`"${section}"`)), `no Python figure in "${section}"`);
  }
  await context.close();
});

for (const [mode, path] of [
  ['compare mode', ''],
  ['migrate mode', '?mode=migrate'],
]) {
  test(`with JavaScript (${mode}), every code block in the page and in each widget reads as valid code`, async (t) => {
    const { page, context } = await open(path, true);
    const n = await mountAll(page);
    if (mode === 'migrate mode') {
      await waitForConvertedTrainJob(page);
    }
    const { blocks, mounted } = await page.evaluate(collectBlocks);
    assert.equal(mounted, n);
    for (let i = 1; i <= n; i++) {
      assert.ok(blocks.some((b) => b.name.includes(`explorer ${i} `)), `explorer ${i} shows no code block`);
    }
    if (mode === 'migrate mode') {
      // The converted objects, one block each, and the marked V1 job.
      assert.ok(blocks.some((b) => /^"trainjob-.*\.yaml \(TrainJob /.test(b.name)), blocks.map((b) => b.name).join('\n'));
      assert.ok(blocks.some((b) => b.name.startsWith('"The V1 job"')), blocks.map((b) => b.name).join('\n'));
    }
    assert.deepEqual(problems(blocks, t), []);
    await context.close();
  });
}
