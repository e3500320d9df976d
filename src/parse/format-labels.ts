import type { TextShape } from '../contracts/parse.js';

/**
 * How each text shape reads in a grade's reason and in `toolgauge parse`: the family and its telltale markup, so a
 * reader knows at once which model or template wrote it (and that a server-side tool parser did not turn it into a
 * native call).
 */
const LABELS: Record<TextShape, string> = {
  'xml-tags': '<tool_call> tags',
  json: 'a JSON call object',
  'bare-json': 'a JSON call object inside prose',
  'python-call': 'python-call syntax',
  'function-tags': '<function=…> tags (Qwen3-Coder / OpenHands / Llama 3.1)',
  mistral: "Mistral's [TOOL_CALLS] format",
  llama: "Llama's <|python_tag|> / <|python_start|> format",
  deepseek: "DeepSeek's tool-call tokens or DSML markup",
  glm: 'the <arg_key>/<arg_value> format (GLM, Hunyuan, K2 Horizon)',
  kimi: "Kimi's tool-call tokens (K2 sections, K3 XTML)",
  harmony: "gpt-oss's harmony format",
  granite: "Granite's <|tool_call|> format",
  gemma: "Gemma's call tokens",
  phi: "Phi-4-mini's functools[…] format",
  olmo: "OLMo 3's <function_calls> format",
  internlm: "InternLM's <|action_start|><|plugin|> format",
  xlam: 'a {"tool_calls": […]} or {"tool_call": {…}} object (xLAM, llama.cpp generic)',
  functionary: "functionary's >>>name / <|recipient|> format",
  'command-r': "Command's <|START_ACTION|> format",
  'invoke-xml': 'Anthropic-style <invoke> XML written as text',
  'tool-named-xml': 'tool-named XML tags (Cline / Roo Code style)',
  'openai-json': 'an OpenAI tool_calls object written as text',
  apertus: "Apertus' <|tools_prefix|> format",
  lfm2: "LFM2's <|tool_call_start|> format",
  minicpm: "MiniCPM's <function name=…><param name=…> format",
  minimax: "MiniMax's <minimax:tool_call> / namespaced <invoke> format",
  'name-json': 'a tool name line and a JSON object inside a call tag',
  solar: "Solar Open's <|tool_call:begin|> format",
  gigachat: "GigaChat's function call<|role_sep|> / GCML format",
};

/** The reader's name for a text shape (`mistral` → "Mistral's [TOOL_CALLS] format"). */
export function shapeLabel(shape: TextShape): string {
  return LABELS[shape];
}
