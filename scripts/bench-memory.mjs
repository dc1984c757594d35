// The "Peak memory" section of BENCHMARKS.md from scripts/bench-memory.py's lines: per worst-case
// shape, each command's peak resident set and CPU time (user + system: what the load of a shared
// machine does not stretch, unlike the wall clock), and the budget every run must meet
// (issue 36: no input, accepted or refused, may take more than 512 MiB).
import { readFileSync } from 'node:fs';

export const PEAK_BUDGET_MIB = 512;
// Inputs under this size are judged by what they take above the floor, not as a multiple.
const SMALL_INPUT_BYTES = 1024 * 1024;
const SMALL_INPUT_BUDGET_MIB = 4;

// The input door's refusals (crates/core/src/pipeline/input.rs): the size, the text, the nesting,
// what aliases expand to, and the number of documents.
const DOOR_REFUSAL = /limit|nesting deeper|more than \d+ documents|binary data|input is empty|no YAML documents/;

export function memorySection(file) {
  const all = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const floors = Object.fromEntries(all.filter((r) => r.floor).map((r) => [r.command, r.peak_kib]));
  const runs = all.filter((r) => !r.floor);
  const shapes = [...new Set(runs.map((r) => r.shape))];
  const commands = [...new Set(runs.map((r) => r.command))];
  const mib = (kib) => (kib / 1024).toFixed(1);
  const refused = (r) => DOOR_REFUSAL.test(r.stderr);
  // What a run takes above a bare run of its command, as a multiple of the input's size.
  const above = (r) => (Math.max(0, r.peak_kib - (floors[r.command] ?? 0)) * 1024) / r.bytes;
  const aboveMib = (r) => Math.max(0, r.peak_kib - (floors[r.command] ?? 0)) / 1024;
  // Lines of an older bench-memory.py carry no CPU time: their wall clock, said so.
  const time = (r) => (r.cpu === undefined ? `${r.seconds.toFixed(2)} s wall` : `${r.cpu.toFixed(2)} s CPU`);
  const growth = (r) => (r.bytes < SMALL_INPUT_BYTES ? `+${aboveMib(r).toFixed(1)} MiB` : `${above(r).toFixed(1)}×`);
  const cell = (r) => (r ? `${mib(r.peak_kib)} MiB, ${time(r)}${refused(r) ? ' (refused)' : `, ${growth(r)}`}` : '–');
  const size = (bytes) => (bytes < 10 * 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`);
  const worst = runs.reduce((a, r) => (r.peak_kib > a.peak_kib ? r : a), runs[0]);
  const accepted = runs.filter((r) => !refused(r));
  // The ratio is judged on inputs of a megabyte or more: under that, a few hundred KiB of
  // resident-set noise and of the work a kind takes whatever its size (judging a TrainJob loads
  // its CRD; the floor is a ConfigMap) swamp the input, so those are judged in MiB above the floor.
  const large = accepted.filter((r) => r.bytes >= SMALL_INPUT_BYTES);
  const small = accepted.filter((r) => r.bytes < SMALL_INPUT_BYTES);
  const worstRatio = large.reduce((a, r) => (above(r) > above(a) ? r : a), large[0]);
  const worstSmall = small.reduce((a, r) => (aboveMib(r) > aboveMib(a) ? r : a), small[0]);
  const lines = [
    '## Peak memory',
    '',
    'Each command that reads input (`export` reads none) of the release CLI on each worst-case shape, one process per run (`scripts/bench-memory.py`: GNU time\'s maximum resident set, and the CPU time, user + system). "(refused)" marks an input the input door turned away; for the others, "N×" is the peak above the floor (the same command on one small ConfigMap) as a multiple of the input\'s size, and "+N MiB" the peak above the floor for an input under 1 MiB. `explain` and `validate` exit 1 on shapes whose TrainJob the cluster would refuse: they have read and judged it all.',
    '',
    `Floor: ${commands.map((c) => `${c} ${floors[c] ? mib(floors[c]) : '?'} MiB`).join(', ')}.`,
    '',
    `| Shape | Size | ${commands.join(' | ')} |`,
    `|---|---|${commands.map(() => '---').join('|')}|`,
    ...shapes.map((s) => {
      const of = runs.filter((r) => r.shape === s);
      return `| ${s} | ${size(of[0].bytes)} | ${commands.map((c) => cell(of.find((r) => r.command === c))).join(' | ')} |`;
    }),
    '',
  ];
  const budgets = [
    [`Peak memory of every command on every shape ≤ ${PEAK_BUDGET_MIB} MiB`, worst.peak_kib <= PEAK_BUDGET_MIB * 1024, `${mib(worst.peak_kib)} MiB (${worst.command}, ${worst.shape})`],
    // Issue 36's goal, on what a run takes above a bare one.
    ...(worstRatio
      ? [[`Peak memory above the floor ≤ 10× the input, every accepted shape of 1 MiB or more`, above(worstRatio) <= 10, `${above(worstRatio).toFixed(1)}× (${worstRatio.command}, ${worstRatio.shape}) ≤ 10×`]]
      : []),
    ...(worstSmall
      ? [[`Peak memory above the floor ≤ ${SMALL_INPUT_BUDGET_MIB} MiB, every accepted shape under 1 MiB`, aboveMib(worstSmall) <= SMALL_INPUT_BUDGET_MIB, `${aboveMib(worstSmall).toFixed(1)} MiB (${worstSmall.command}, ${worstSmall.shape}, ${worstSmall.bytes} bytes)`]]
      : []),
  ];
  return { lines, budgets };
}
