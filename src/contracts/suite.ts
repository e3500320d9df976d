export type {
  Expect,
  ExpectedCall,
  ServerSpec,
  StateFact,
  Suite,
  SuiteCase,
  ToolFilter,
  UserTurn,
} from '../config/suite-schema.js';
