// Checks the staged npm package (scripts/build-package.sh) against what element.js does:
//   node scripts/check-package.mjs DIR CARGO_VERSION
// custom-elements.json and element.d.ts are written by hand, so they must name exactly
// element.js's exports, and the manifest the element's observed attributes (and `assets`), one
// property per option, and the tag define.js registers; the package's version must be the widget
// crate's; every file `exports` names must exist.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, cargoVersion] = process.argv.slice(2);
const read = (file) => readFileSync(join(dir, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
assert.equal(pkg.version, cargoVersion, `npm/package.json's version is not Cargo.toml's ${cargoVersion}`);

const element = await import(pathToFileURL(resolve(dir, 'element.js')).href);
const { TrainerV2Explorer, SELECTION_OPTIONS } = element;
const manifest = JSON.parse(read('custom-elements.json'));
const [decl] = manifest.modules.find((m) => m.path === 'element.js').declarations;
// Every name element.js exports (explorer.js imports some: one definition each) is typed in
// element.d.ts and listed in the manifest, and neither names one it lacks.
const typed = [...read('element.d.ts').matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]).sort();
const listed = manifest.modules.find((m) => m.path === 'element.js').exports.map((e) => e.name).sort();
assert.deepEqual(typed, Object.keys(element).sort(), 'element.d.ts declares what element.js exports');
assert.deepEqual(listed, Object.keys(element).sort(), "custom-elements.json's exports are element.js's");
const names = (list) => list.map((a) => a.name).sort();
assert.deepEqual(names(decl.attributes), [...TrainerV2Explorer.observedAttributes, 'assets'].sort(), 'custom-elements.json attributes');
for (const name of TrainerV2Explorer.observedAttributes) {
  assert.ok(name in TrainerV2Explorer.prototype, `no property for the attribute ${name}`);
  assert.ok(decl.members.some((m) => m.name === name), `custom-elements.json has no member ${name}`);
}
assert.ok(SELECTION_OPTIONS.every((o) => TrainerV2Explorer.observedAttributes.includes(o)));
const definition = manifest.modules.find((m) => m.path === 'define.js').exports[0];
assert.ok(read('define.js').includes(`'${definition.name}'`) || read('define.js').includes(`"${definition.name}"`), `define.js does not register ${definition.name}`);
const targets = (entry) => (typeof entry === 'string' ? [entry] : Object.values(entry).flatMap(targets));
for (const file of Object.values(pkg.exports).flatMap(targets)) assert.ok(existsSync(join(dir, file)), `exports names a missing ${file}`);

// The recipes (npm's README, and the repository's) are what the consumer sites build: each
// block titled with a file is in that file of tests/consumers/<site>, the site its section
// (### Docusaurus 3, Vite, Plain HTML) is about.
const SITES = { docusaurus: 'docusaurus', vite: 'vite', plain: 'html' };
let recipes = 0;
for (const readme of [join(dir, 'README.md'), 'README.md']) {
  let site = null;
  let blocks = 0;
  for (const [, heading, title, body] of readFileSync(readme, 'utf8').matchAll(/^### (\w+)|^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)) {
    if (heading) site = SITES[heading.toLowerCase()] ?? null;
    if (!title) continue;
    assert.ok(site, `${readme}: block ${title} is not under a recipe's heading`);
    const file = readFileSync(join('tests/consumers', site, title), 'utf8');
    assert.ok(file.includes(body), `${readme}: the ${site} recipe shows ${title} otherwise than tests/consumers/${site}/${title}`);
    blocks++;
  }
  assert.ok(blocks >= 6, `${readme}: only ${blocks} recipe blocks`);
  recipes += blocks;
}
console.log(`package checked: ${TrainerV2Explorer.observedAttributes.length + 1} attributes in custom-elements.json, exports present, ${recipes} README recipe blocks as tests/consumers builds them`);
