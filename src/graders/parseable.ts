import type { Grade, GradeInput, Grader } from '../contracts/grade.js';
import type { ParsedCall } from '../contracts/parse.js';
import type { Turn } from '../contracts/transcript.js';
import { shapeLabel } from '../parse/format-labels.js';
import { acceptedCalls, isPythonCall } from '../parse/index.js';
import { expectsCalls, fenceLabel, isWrapped, malformedAttempts, toolCalls } from './transcript-calls.js';

const NAME = 'parseable';

export const parseable: Grader = {
  name: NAME,
  description:
    'At least one call in the protocol the request asked for, with arguments that parse. Calls that only parse after unfencing or repair fail, recorded as lenient (would parse with a lenient detector).',
  grade(input: GradeInput): Grade | null {
    if (!expectsCalls(input.case)) return null;
    const { protocol, transcript } = input;
    const { turns } = transcript;
    // one-turn transcripts (every offline line) skip the flattening copies
    // searches (a tool-search strategy's) are the runner's calls, not the catalog's: judged apart
    const strict =
      turns.length === 1
        ? toolCalls(turns[0] as Turn, acceptedCalls((turns[0] as Turn).parse, protocol))
        : turns.flatMap((t) => toolCalls(t, acceptedCalls(t.parse, protocol)));
    const all = turns.length === 1 ? toolCalls(turns[0] as Turn) : turns.flatMap((t) => toolCalls(t));
    if (strict.length > 0) {
      return {
        grader: NAME,
        pass: true,
        score: 1,
        reason: `${strict.length} call(s) in the ${protocol} protocol: ${unique(strict).join(', ')}`,
        data: { level: 'strict', lenient: true, calls: strict.length },
      };
    }
    if (all.length > 0) {
      const wrapped = all.find(isWrapped);
      const level = wrapped ? 'fenced' : 'repaired';
      const how = wrapped
        ? `only inside ${fenceLabel(wrapped)} ${wrapped.via === 'inline-code' ? 'inline code' : 'fence'}`
        : describe(all[0] as ParsedCall);
      return {
        grader: NAME,
        pass: false,
        score: 0,
        reason: `${unique(all).join(', ')} call found ${how}; a strict ${protocol} detector misses it (would parse with a lenient detector)`,
        data: { level, lenient: true, via: [...new Set(all.map((c) => c.via))] },
      };
    }
    const attempts = malformedAttempts(transcript);
    const think = transcript.turns.flatMap((t) => t.parse.diagnostics.filter((d) => d.code === 'call-in-think'));
    const notes = [
      attempts.length > 0
        ? `${attempts.length} malformed attempt(s): ${attempts.map((d) => d.message).join('; ')}`
        : '',
      think.length > 0 ? `${think.length} call(s) only inside a reasoning block` : '',
    ].filter(Boolean);
    return {
      grader: NAME,
      pass: false,
      score: 0,
      reason: `no call found in the ${protocol} protocol${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
      data: { level: 'none', lenient: false, attempts: attempts.length, callsInThink: think.length },
    };
  },
};

function unique(calls: readonly ParsedCall[]): string[] {
  const names: string[] = [];
  for (const c of calls) if (!names.includes(c.name)) names.push(c.name);
  return names;
}

function describe(c: ParsedCall): string {
  if (c.repaired && isPythonCall(c))
    return `cut off before its closing bracket (${c.via}; arguments parsed up to the cut)`;
  if (c.repaired) return `with arguments that only parse after jsonrepair (${c.via})`;
  if (c.via === 'native') return 'as a native tool call';
  if (c.via === 'fenced' || c.via === 'inline-code') return `in the ${c.via} shape`;
  return `in ${shapeLabel(c.via)} (via ${c.via})`;
}
