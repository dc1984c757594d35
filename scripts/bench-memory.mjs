// The "Peak memory" section of BENCHMARKS.md from scripts/bench-memory.py's lines: per worst-case
// shape, each command's peak resident set and wall-clock time, and the budget every run must meet
// (issue 36: no input, accepted or refused, may take more than 512 MiB).
import { readFileSync } from 'node:fs';

export const PEAK_BUDGET_MIB = 512;

export function memorySection(file) {
  const runs = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const shapes = [...new Set(runs.map((r) => r.shape))];
  const commands = [...new Set(runs.map((r) => r.command))];
  const mib = (kib) => (kib / 1024).toFixed(1);
  const cell = (r) => (r ? `${mib(r.peak_kib)} MiB, ${r.seconds.toFixed(2)} s${r.stderr.includes('limit') || r.stderr.includes('nesting deeper') ? ' (refused)' : ''}` : '–');
  const worst = runs.reduce((a, r) => (r.peak_kib > a.peak_kib ? r : a), runs[0]);
  const lines = [
    '## Peak memory',
    '',
    'Each command of the release CLI on each worst-case shape, one process per run (`scripts/bench-memory.py`: GNU time\'s maximum resident set, and the wall clock). "(refused)" marks an input the input door turned away.',
    '',
    `| Shape | Size | ${commands.join(' | ')} |`,
    `|---|---|${commands.map(() => '---').join('|')}|`,
    ...shapes.map((s) => {
      const of = runs.filter((r) => r.shape === s);
      return `| ${s} | ${(of[0].bytes / 1024).toFixed(0)} KiB | ${commands.map((c) => cell(of.find((r) => r.command === c))).join(' | ')} |`;
    }),
    '',
  ];
  const budgets = [[`Peak memory of every command on every shape ≤ ${PEAK_BUDGET_MIB} MiB`, worst.peak_kib <= PEAK_BUDGET_MIB * 1024, `${mib(worst.peak_kib)} MiB (${worst.command}, ${worst.shape})`]];
  return { lines, budgets };
}
