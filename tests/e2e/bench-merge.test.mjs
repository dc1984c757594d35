// make bench rewrites only its own blocks of BENCHMARKS.md (scripts/bench-merge.mjs): the sections
// written by hand around them survive a regeneration, byte for byte. No browser needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { block, merge, parse } from '../../scripts/bench-merge.mjs';

const hand = (title) => `## ${title}\n\nWritten by hand: ${title}.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`;
const before = [
  block('summary', '# Benchmarks\n\n| Measure | Ours |\n|---|---|\n| TTI | 1158.80 ms |'),
  '',
  '**Partly re-measured**: a hand note under the table.',
  '',
  block('shapes', '## Worst-case inputs\n\n| Shape | Time |\n|---|---|\n| many-labels | 0.279 s |'),
  '',
  hand('Converter speed, before and after'),
  block('budgets', '## Budgets\n\n| Budget | Result |\n|---|---|\n| TTI | missed |'),
  '',
  hand('make test: CPU per stage'),
].join('\n');
const regenerated = [
  ['summary', '# Benchmarks\n\n| Measure | Ours |\n|---|---|\n| TTI | 600.00 ms |'],
  ['shapes', '## Worst-case inputs\n\n| Shape | Time |\n|---|---|\n| many-labels | 0.250 s |\n| many-env | 0.210 s |'],
  ['budgets', '## Budgets\n\n| Budget | Result |\n|---|---|\n| TTI | met |'],
];
/** The lines of `text` outside make bench's blocks. */
const handLines = (text) => parse(text).flatMap((p) => p.hand ?? [`[${p.name}]`]);

test('a regeneration replaces the blocks and keeps every hand-written line where it was', () => {
  const after = merge(before, regenerated);
  assert.deepEqual(handLines(after), handLines(before));
  for (const [name, text] of regenerated) assert.ok(after.includes(block(name, text)), name);
  assert.ok(!after.includes('1158.80 ms') && !after.includes('0.279 s') && !after.includes('| TTI | missed |'));
  assert.ok(after.includes('## Converter speed, before and after\n\nWritten by hand') && after.endsWith(hand('make test: CPU per stage')));
  // Twice is once.
  assert.equal(merge(after, regenerated), after);
});

test('a block new to the file goes after the one before it; one not regenerated stays', () => {
  const blocks = [regenerated[0], ['npm', '## The npm package\n\nnew'], regenerated[2]];
  const after = merge(before, blocks);
  const order = parse(after).filter((p) => p.name).map((p) => p.name);
  assert.deepEqual(order, ['summary', 'npm', 'shapes', 'budgets']);
  assert.ok(after.includes(`${block('summary', blocks[0][1])}\n\n${block('npm', blocks[1][1])}\n\n**Partly re-measured**`));
  // "shapes" was not measured this time: its last figures stay.
  assert.ok(after.includes('| many-labels | 0.279 s |'));
});

test('a new file is the blocks alone; a broken marker is an error, not a lost section', () => {
  assert.equal(merge('', regenerated.slice(0, 2)), `${block(...regenerated[0])}\n\n${block(...regenerated[1])}\n`);
  assert.throws(() => merge(before.replace('<!-- /make bench: shapes -->', ''), regenerated), /opens inside "shapes"/);
  assert.throws(() => merge(`${before}\n<!-- make bench: x -->\n`, regenerated), /"x" is not closed/);
});

test('BENCHMARKS.md as committed: its markers parse, and regenerating its blocks as they are changes nothing', () => {
  const text = readFileSync(new URL('../../BENCHMARKS.md', import.meta.url), 'utf8');
  const blocks = parse(text).filter((p) => p.name).map((p) => [p.name, p.lines.join('\n')]);
  assert.ok(blocks.length >= 5, `only ${blocks.length} make bench blocks`);
  assert.equal(merge(text, blocks), text);
});
