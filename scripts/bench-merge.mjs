// BENCHMARKS.md is half make bench's and half people's: the tables make bench measures, and the
// sections written by hand around them (one-off before/after measurements, notes on a partial
// re-measure, make test's CPU per stage). make bench rewrites only its own blocks, each between
// two marker lines, and keeps every other line of the file as it was:
//
//   <!-- make bench: NAME -->
//   …what scripts/bench.mjs produced for NAME…
//   <!-- /make bench: NAME -->
//
// The markers are HTML comments, which Markdown does not show.

const OPEN = (name) => `<!-- make bench: ${name} -->`;
const CLOSE = (name) => `<!-- /make bench: ${name} -->`;
const MARKER = /^<!-- (\/?)make bench: (.+) -->$/;

/** `text` between its markers as NAME. */
export const block = (name, text) => `${OPEN(name)}\n${text.replace(/\n+$/, '')}\n${CLOSE(name)}`;

/** The file's lines split into hand-written runs ({ hand: [lines] }) and make bench's blocks
 * ({ name, lines }, markers excluded). Throws on a marker out of place, so a hand edit that broke
 * one is found rather than a section silently dropped. */
export function parse(text) {
  const parts = [];
  let open = null;
  for (const line of text.split('\n')) {
    const m = line.match(MARKER);
    if (!m) {
      if (open) open.lines.push(line);
      else if (parts.at(-1)?.hand) parts.at(-1).hand.push(line);
      else parts.push({ hand: [line] });
      continue;
    }
    const [, close, name] = m;
    if (!close) {
      if (open) throw new Error(`make bench block "${name}" opens inside "${open.name}"`);
      if (parts.some((p) => p.name === name)) throw new Error(`make bench block "${name}" twice`);
      open = { name, lines: [] };
      parts.push(open);
    } else {
      if (open?.name !== name) throw new Error(`make bench block "${name}" closes where ${open ? `"${open.name}"` : 'none'} is open`);
      open = null;
    }
  }
  if (open) throw new Error(`make bench block "${open.name}" is not closed`);
  return parts;
}

/**
 * The file `old` with make bench's blocks replaced by `blocks` ([[name, text], …], in the order
 * make bench writes them); every line outside a block is kept as it was. A block the file does
 * not have yet goes after the block before it in `blocks` (or first), with an empty line around
 * it; a block of the file that `blocks` does not hold (a part make bench did not run this time)
 * stays as it was. An empty or missing file gets the blocks alone.
 */
export function merge(old, blocks) {
  const wanted = new Map(blocks);
  const parts = parse(old ?? '');
  for (const [i, [name]] of blocks.entries()) {
    if (parts.some((p) => p.name === name)) continue;
    const after = i === 0 ? -1 : parts.findIndex((p) => p.name === blocks[i - 1][0]);
    if (after < 0) parts.unshift({ name }, { hand: [''] });
    else parts.splice(after + 1, 0, { hand: [''] }, { name });
  }
  const out = parts.flatMap((p) => {
    if (p.hand) return p.hand;
    return wanted.has(p.name) ? [block(p.name, wanted.get(p.name))] : [OPEN(p.name), ...p.lines, CLOSE(p.name)];
  });
  const text = out.join('\n');
  // A new file: no stray empty lines of the placeholders at its ends.
  if (!old) return `${text.replace(/^\n+|\n+$/g, '')}\n`;
  return text.endsWith('\n') ? text : `${text}\n`;
}
