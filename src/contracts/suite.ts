export type { Expect, ExpectedCall, ServerSpec, Suite, SuiteCase, ToolFilter } from '../config/suite-schema.js';
