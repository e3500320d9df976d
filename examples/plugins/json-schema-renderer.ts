// A renderer plugin: lists every tool with its JSON Schema, and asks for calls in <tool_call> tags.
// Use it in a config as `renderers: [./examples/plugins/json-schema-renderer.ts]` (a path relative to the config).
import type { Renderer } from 'toolgauge';

export const renderer: Renderer = {
  name: 'json-schema',
  description: 'Each tool as its name, description and JSON Schema; calls in <tool_call> tags',
  render({ catalog, case: c }) {
    const tools = catalog.tools.map(
      (t) => `- ${t.name}: ${t.description ?? ''}\n  input schema: ${JSON.stringify(t.inputSchema)}`,
    );
    return {
      system: [
        'You can call these tools:',
        ...tools,
        'To call a tool, reply with <tool_call>{"name": "<tool>", "arguments": {...}}</tool_call> and nothing else.',
        'Never put the call in a code block.',
      ].join('\n'),
      messages: [{ role: 'user', content: c.prompt }],
      protocol: 'xml-tags',
      stop: ['</tool_call>'],
    };
  },
};
