// An offline eval through toolgauge's library API: the bundled coder suite and its MCP server, two renderer
// strategies, two simulated models, no network and no API key. Prints the gate's verdict; exits with its code.
import { evaluate, exitCodeOf, isToolgaugeError } from 'toolgauge';

// Ctrl-C once: no new case starts, the cases in flight finish and are saved; twice: those are aborted too.
const stop = new AbortController();
const abort = new AbortController();
process.on('SIGINT', () => (stop.signal.aborted ? abort : stop).abort());

let failing = 0;
try {
  const run = await evaluate(
    {
      config: {
        suites: ['coder'],
        renderers: ['names-only', 'native-functions'],
        providers: ['sim:oracle', 'sim:guesser'],
        out: 'reports',
        gate: {
          baseline: 'none',
          thresholds: [{ grader: 'correct-arguments', provider: 'sim:oracle', min: 1 }],
        },
      },
    },
    {
      signal: stop.signal,
      abortSignal: abort.signal,
      onRecord: (record, { done, total }) => {
        if (record.error || record.grades.some((g) => !g.pass)) failing++;
        if (done === total) console.error(`${done}/${total} cases finished`);
      },
    },
  );
  console.log(`${run.aggregate.total} cases, ${failing} with a failing grade → ${run.runDir}`);
  for (const line of run.verdict.lines) console.log(line);
  console.log(
    `verdict: exit ${run.exitCode}${run.interrupted ? ' (interrupted: resume with { resume: run.runDir })' : ''}`,
  );
  process.exitCode = run.exitCode;
} catch (e) {
  if (!isToolgaugeError(e)) throw e;
  console.error(`toolgauge: ${e.code}: ${e.message}`);
  process.exitCode = exitCodeOf(e);
}
