#!/usr/bin/env node
// The CLI bundle (scripts/bundle-cli.mjs), built by `npm run build` (run by `npm ci` through `prepare`).
import '../dist/cli/main.js';
