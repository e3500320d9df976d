// Step 5 of the toolgauge action: the job ends with toolgauge's exit code — 0 passed, 1 the gate failed, 2 usage or
// config error, 3 infrastructure errors, 130 interrupted. A shard (TG_SHARD) passes on 1: the gate is judged on the
// merged run. TG_FAIL_ON_GATE=false reports a failed gate as a warning instead.
import { input, verdictOf } from './action-io.mjs';

const code = Number(input('EXIT_CODE', '3'));
const shard = input('SHARD');
const failOnGate = input('FAIL_ON_GATE', 'true') !== 'false';
if (code === 0) {
  console.log('toolgauge: passed');
  process.exit(0);
}
if (code === 1 && shard) {
  console.log(`::notice::toolgauge shard ${shard}: a threshold failed here; the gate is judged on the merged run`);
  process.exit(0);
}
if (code === 1 && !failOnGate) {
  console.log('::warning::toolgauge: the gate failed (fail-on-gate: false)');
  process.exit(0);
}
console.log(`::error::toolgauge: ${verdictOf(code)} (exit ${code}); the step summary and the report artifact say why`);
process.exit(Number.isInteger(code) && code > 0 ? code : 3);
