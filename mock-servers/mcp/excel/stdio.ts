// Entry point: `node --import tsx mock-servers/mcp/excel/stdio.ts` serves the excel mock server over stdio.
import { serveStdio } from '../serve.js';
import { excelServer } from './index.js';

await serveStdio(excelServer);
