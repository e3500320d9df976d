// The layers of the code, lowest first: a folder may import its own layer and the layers below it, never one above.
// `.dependency-cruiser.cjs` turns this table into forbidden rules; scripts/check-layers.mjs also checks that every
// module sits in one of these folders and that no two folders import each other, directly or around a longer loop.
// docs/architecture.md ("Layers") says why each folder sits where it does.
'use strict';

const LAYERS = [
  { name: 'ground', folders: ['src/contracts', 'src/util', 'src/errors.ts'] },
  { name: 'formats', folders: ['src/config', 'src/run-log'] },
  { name: 'pure stages', folders: ['src/parse', 'src/graders', 'src/presentation', 'renderers'] },
  { name: 'I/O stages', folders: ['src/catalog', 'providers', 'mock-servers'] },
  {
    name: 'orchestration',
    folders: [
      'src/plugins',
      'src/render',
      'src/replay',
      'src/runner',
      'src/offline',
      'src/report',
      'src/gate',
      'src/tune',
    ],
  },
  {
    name: 'face',
    folders: ['src/cli', 'src/api', 'src/init', 'src/doctor', 'src/export', 'src/import', 'src/index.ts'],
  },
];

/** The folders the check reads (the build's roots). */
const ROOTS = ['src', 'providers', 'renderers', 'mock-servers'];

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regular expression matching the modules of one folder (a `.ts` entry is one file). */
function folderPattern(folder) {
  return folder.endsWith('.ts') ? `^${escapeRegExp(folder)}$` : `^${escapeRegExp(folder)}/`;
}

/** The layer table's folder a module path belongs to, or undefined. */
function folderOf(path) {
  for (const layer of LAYERS) {
    for (const folder of layer.folders) {
      if (path === folder || path.startsWith(`${folder}/`)) return folder;
    }
  }
  return undefined;
}

module.exports = { LAYERS, ROOTS, folderPattern, folderOf };
