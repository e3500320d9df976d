import type { ToolDef } from '../../src/contracts/index.js';
import { cosine, wordCounts } from '../../src/presentation/lexical-search.js';
import { expectedArgs, type PlannedCall, planTurn } from './oracle-plan.js';
import { caseRandom, speak } from './persona-kit.js';
import type { RequestView } from './request-view.js';
import { viewOf } from './request-view.js';
import { selectionChance } from './selection-curve.js';
import type { Persona, PersonaRequest, SimCall } from './types.js';

const NAME = 'selector';

/** A catalog tool as the persona compares them: its name and description as shown. */
type Shown = Pick<ToolDef, 'name' | 'description'> & ToolDef;

/**
 * The tools the request shows, as the oracle's catalog names them: the native tools offered (the search tool aside),
 * or, for a text protocol, the catalog tools the prompt (or a search's result) reveals.
 */
function shownTools(view: RequestView): Shown[] {
  const catalog = view.request.oracle?.catalog ?? [];
  const asTool = (name: string, description: string): Shown => ({ name, description, inputSchema: {}, server: '' });
  const search = view.searchTool;
  if (view.protocol === 'native' && view.request.tools) {
    const byName = new Map(catalog.map((t) => [t.name, t.description]));
    return view.request.tools
      .filter((t) => t.name !== search)
      .map((t) => asTool(t.target.tool, byName.get(t.target.tool) ?? t.description));
  }
  return catalog.filter((t) => view.callName(t.name) !== null).map((t) => asTool(t.name, t.description));
}

/**
 * Word counts by tool name and description: a case shows the same tools on every turn and every strategy. Bounded; a
 * count is a pure function of its key, so keeping it changes no answer.
 */
const counts = new Map<string, Map<string, number>>();
const MAX_COUNTS = 4096;

function countsOf(tool: Shown): Map<string, number> {
  const key = `${tool.name}\u0000${tool.description ?? ''}`;
  let c = counts.get(key);
  if (!c) {
    if (counts.size >= MAX_COUNTS) counts.clear();
    c = wordCounts(tool);
    counts.set(key, c);
  }
  return c;
}

/** The shown tool most like `tool` (other than itself), and how alike: ties go to the name first in sort order. */
function lookAlike(tool: Shown, shown: readonly Shown[]): { tool?: Shown; score: number } {
  let best: Shown | undefined;
  let score = 0;
  const mine = countsOf(tool);
  for (const t of shown) {
    if (t.name === tool.name) continue;
    const s = cosine(mine, countsOf(t));
    if (s > score || (s === score && best && t.name < best.name)) {
      best = t;
      score = s;
    }
  }
  return best ? { tool: best, score } : { score };
}

/**
 * One planned call as the persona makes it: the right tool with chance selectionChance(shown tools, similarity of the
 * closest look-alike); otherwise the look-alike, with the same arguments. The draw is per case and tool (not per
 * strategy), so a case that goes wrong with 50 tools shown also goes wrong with 100.
 */
function choose(view: RequestView, call: PlannedCall, shown: readonly Shown[]): SimCall {
  const self = shown.find((t) => t.name === call.tool);
  if (!self) return call;
  const alike = lookAlike(self, shown);
  const chance = selectionChance(shown.length, alike.score);
  const draw = caseRandom(view.request, NAME, `select:${call.tool}`)();
  if (draw < chance || !alike.tool) return call;
  const name = view.callName(alike.tool.name) ?? alike.tool.name;
  return { tool: alike.tool.name, name, args: call.args };
}

/** Below this similarity a tool is no stand-in for the one not found: the persona answers in prose instead. */
const STAND_IN_SIMILARITY = 0.25;

/**
 * Simulated catalog persona: right calls, but it picks the wrong tool more often as the request shows more tools and
 * as they resemble the right one; with tool search it sees only what its searches loaded (and, when a search never
 * finds the tool, takes the loaded tool most like it). Labelled simulated: its curve is made up (selection-curve.ts).
 */
export const selector: Persona = {
  name: NAME,
  description:
    'Picks the wrong tool more often as the catalog grows and tools look alike; better when a search narrows it',
  reply(request: PersonaRequest) {
    const view = viewOf(request);
    const plan = planTurn(view);
    if (plan.kind === 'not-revealed' && view.searchTool) {
      const shown = shownTools(view);
      const wanted = request.oracle?.catalog?.find((t) => t.name === plan.tool);
      const alike = wanted ? lookAlike({ ...wanted, inputSchema: {}, server: '' }, shown) : { score: 0 };
      const expected = request.oracle?.calls.find((c) => c.tool === plan.tool);
      if (alike.tool && expected && alike.score >= STAND_IN_SIMILARITY) {
        const name = view.callName(alike.tool.name) ?? alike.tool.name;
        const args = expectedArgs(expected);
        return speak(view, { kind: 'calls', calls: [] }, { calls: [{ tool: alike.tool.name, name, args }] });
      }
    }
    if (plan.kind !== 'calls') return speak(view, plan);
    const shown = shownTools(view);
    return speak(view, plan, { calls: plan.calls.map((c) => choose(view, c, shown)) });
  },
};
