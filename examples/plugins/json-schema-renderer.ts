// A renderer plugin: lists every tool with its JSON Schema, and asks for calls in <tool_call> tags.
// Use it in a config as `renderers: [./examples/plugins/json-schema-renderer.ts]` (a path relative to the config).
// `prepare` runs once per catalog and provider in a run; the `render` it returns runs once per case.
import type { Renderer } from 'toolgauge';

export const renderer: Renderer = {
  name: 'json-schema',
  description: 'Each tool as its name, description and JSON Schema; calls in <tool_call> tags',
  prepare({ catalog }) {
    const tools = catalog.tools.map(
      (t) => `- ${t.name}: ${t.description ?? ''}\n  input schema: ${JSON.stringify(t.inputSchema)}`,
    );
    const system = [
      'You can call these tools:',
      ...tools,
      'To call a tool, reply with <tool_call>{"name": "<tool>", "arguments": {...}}</tool_call> and nothing else.',
      'Never put the call in a code block.',
    ].join('\n');
    return {
      render: (c) => ({
        system,
        messages: [{ role: 'user', content: c.prompt }],
        protocol: 'xml-tags',
        stop: ['</tool_call>'],
      }),
    };
  },
};
