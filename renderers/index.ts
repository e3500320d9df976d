import type { Renderer } from '../src/contracts/renderer.js';
import { cachedSchemas } from './cached-schemas.js';
import { claudeCode } from './claude-code.js';
import { clineXml } from './cline-xml.js';
import { fullDetails } from './full-details.js';
import { hermes } from './hermes.js';
import { namesOnly } from './names-only.js';
import { nativeFunctions } from './native-functions.js';
import { toolSearch } from './tool-search.js';

export const renderers = {
  'names-only': namesOnly,
  'full-details': fullDetails,
  'native-functions': nativeFunctions,
  'cached-schemas': cachedSchemas,
  'tool-search': toolSearch,
  'cline-xml': clineXml,
  hermes,
  'claude-code': claudeCode,
} satisfies Record<string, Renderer>;

export type RendererName = keyof typeof renderers;

export { renderNativeTools } from './native-functions.js';
export {
  asObjectSchema,
  isObjectSchema,
  normalizeSchema,
  type ObjectSchema,
  type PropertySchema,
} from './parts/schema-normalize.js';
export { nativeToolNames, resolveTextToolName, sortTools, textToolNames } from './parts/tool-names.js';
