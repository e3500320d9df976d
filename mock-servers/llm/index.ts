export { echoResponder, providerResponder, scriptedResponder, toModelRequest } from './responders.js';
export { type ServeLlmOptions, serveLlm } from './serve.js';
export { startLlmMock } from './server.js';
export { toNeutral } from './to-neutral.js';
export type * from './types.js';
