// The validate section of BENCHMARKS.md from scripts/bench-validate.sh's JSON: `trainer-explorer
// validate` (the wheel's binary) against check-jsonschema on the same files, side by side in one
// run, and the budget issue 32 sets: ours, which checks the schema, the CEL rules and the
// webhook's, is faster than the schema-only check.
// Run alone (`node scripts/bench-validate.mjs validate.json BENCHMARKS.md`), it puts the section
// in BENCHMARKS.md in place of the one there, without running the whole make bench.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { merge, parse } from './bench-merge.mjs';

export const HEADING = '## validate against check-jsonschema';

export function validateSection(file) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const s = (x) => `${x.toFixed(2)} s`;
  const lines = [
    HEADING,
    '',
    `${r.trainjobs.toLocaleString('en')} TrainJobs and the ${r.runtimes.toLocaleString('en')} TrainingRuntimes they reference, one per file (${r.files.toLocaleString('en')} files; \`scripts/bench-validate.sh\`), judged by Trainer ${r.release}'s CRDs. Ours: the wheel's \`trainer-explorer validate --runtimes\` (release build), strict schema, create-time CEL rules and the webhook's checks. check-jsonschema (${r.check_jsonschema}, PyPI): the same files against the CRDs' openAPIV3Schema as JSON Schema files (closed as strict validation closes them), schema only; one run per schema. Wall clock, best of ${r.runs}, both in one run.`,
    '',
    '| Measure | trainer-explorer validate | check-jsonschema | Ratio |',
    '|---|---|---|---|',
    `| ${r.files.toLocaleString('en')} files (${r.trainjobs.toLocaleString('en')} TrainJobs + their runtimes) | ${s(r.ours_s)} | ${s(r.check_jsonschema_s)} | ${r.ratio.toFixed(1)}× faster |`,
    '',
  ];
  const budgets = [[
    'validate faster than check-jsonschema on the same files (issue 32)',
    r.ours_s < r.check_jsonschema_s,
    `${s(r.ours_s)} against ${s(r.check_jsonschema_s)} (${r.ratio.toFixed(1)}×)`,
  ]];
  return { lines, budgets };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [json, markdown] = process.argv.slice(2);
  const { lines } = validateSection(json);
  const text = readFileSync(markdown, 'utf8');
  const start = text.indexOf(HEADING);
  const section = lines.join('\n') + '\n';
  let next;
  if (parse(text).some((p) => p.name === 'validate')) {
    // Its block of make bench's (scripts/bench-merge.mjs).
    next = merge(text, [['validate', section]]);
  } else if (start >= 0) {
    const end = text.indexOf('\n## ', start + HEADING.length);
    next = text.slice(0, start) + section + (end >= 0 ? text.slice(end + 1) : '');
  } else {
    const budgets = text.indexOf('## Budgets');
    next = budgets >= 0 ? text.slice(0, budgets) + section + text.slice(budgets) : `${text}\n${section}`;
  }
  writeFileSync(markdown, next);
}
