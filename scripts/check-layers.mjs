// The layering check run by `npm run lint` (docs/architecture.md, "Layers"): dependency-cruiser applies the forbidden
// rules of .dependency-cruiser.cjs to every import (type-only ones included) of the project's folders, then this
// script checks what the cruiser's own folder scope cannot: that every module sits in a folder of the layer table
// and that the folders of that table import each other in no loop. (The cruiser's folder-scope cycle rule sees src/
// itself as a folder, and src/ holds both src/index.ts and src/errors.ts, so every folder would loop through it.)
// Run from the project folder; prints one line per problem and exits 1 if there is any.
import { createRequire } from 'node:module';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const require = createRequire(`${process.cwd()}/`);
const { ROOTS, folderOf } = require('./scripts/layers.cjs');

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const tsConfig = extractTSConfig(options.ruleSet?.options?.tsConfig?.fileName ?? 'tsconfig.json');
const { output } = await cruise(ROOTS, { ...options, outputType: 'json' }, {}, { tsConfig });
const result = typeof output === 'string' ? JSON.parse(output) : output;

const problems = [];
for (const v of result.summary.violations) {
  const rule = options.ruleSet.forbidden.find((r) => r.name === v.rule.name);
  const what = v.from === v.to ? v.from : `${v.from} imports ${v.to}`; // a reachability rule names one module
  problems.push(`${v.rule.name}: ${what}${rule?.comment ? ` (${rule.comment})` : ''}`);
}

// Folder edges from the modules the cruiser resolved (ours only: node_modules and core modules are skipped).
const edges = new Map();
const ours = (path) => ROOTS.some((root) => path.startsWith(`${root}/`));
for (const module of result.modules) {
  if (!ours(module.source) || /^(tests|bench)\//.test(module.source)) continue;
  const from = folderOf(module.source);
  if (from === undefined) {
    problems.push(
      `layer-unplaced: ${module.source} is in no folder of the layer table; add its folder to scripts/layers.cjs`,
    );
    continue;
  }
  for (const dep of module.dependencies) {
    const to = ours(dep.resolved) ? folderOf(dep.resolved) : undefined;
    if (to === undefined || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} imports ${dep.resolved}`);
  }
}

// Folders that import each other around a loop: the strongly connected components of the folder graph (Tarjan's
// algorithm; the graph has a few dozen folders), each reported once with its shortest loop and the imports that make it.
const index = new Map();
const low = new Map();
const stack = [];
const components = [];
function connect(folder) {
  index.set(folder, index.size);
  low.set(folder, index.get(folder));
  stack.push(folder);
  for (const next of edges.get(folder)?.keys() ?? []) {
    if (!index.has(next)) {
      connect(next);
      low.set(folder, Math.min(low.get(folder), low.get(next)));
    } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder), index.get(next)));
  }
  if (low.get(folder) !== index.get(folder)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    component.push(member);
  } while (member !== folder);
  if (component.length > 1) components.push(component.sort());
}
for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) connect(folder);

/** The shortest way from `start` back to itself inside one component (breadth first). */
function shortestLoop(start, members) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (next === start) {
        const path = [folder];
        while (cameFrom.get(path[0]) !== undefined) path.unshift(cameFrom.get(path[0]));
        return [...path, start];
      }
      if (members.includes(next) && !cameFrom.has(next)) {
        cameFrom.set(next, folder);
        queue.push(next);
      }
    }
  }
  return [start];
}
for (const component of components) {
  const loop = shortestLoop(component[0], component);
  const why = loop.slice(0, -1).map((f, i) => edges.get(f).get(loop[i + 1]));
  problems.push(
    `no-folder-cycle: ${component.join(', ')} import each other, e.g. ${loop.join(' → ')} (${why.join('; ')})`,
  );
}

for (const line of problems) console.error(line);
if (problems.length > 0) {
  console.error(`${problems.length} layering problem(s); the layers are in docs/architecture.md ("Layers")`);
  process.exitCode = 1;
} else {
  console.log(
    `layers: ${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} imports, no upward import, no folder loop`,
  );
}
