import { describe, expect, it } from 'vitest';
import type { RenderedTool } from '../contracts/model.js';
import type { ToolDef } from '../contracts/tool.js';
import { parseTools } from './parse-tools.js';

const schema = { type: 'object', properties: { city: { type: 'string' } } };
const offered: ToolDef[] = [{ server: 'weather', name: 'get_weather', inputSchema: schema } as ToolDef];
const rendered: RenderedTool[] = [
  {
    name: 'weather__get_weather',
    description: '',
    parameters: schema,
    target: { server: 'weather', tool: 'get_weather' },
  },
];

describe('parseTools', () => {
  it('lists the offered tools and the rendered native names that differ, with the tool schema', () => {
    expect(parseTools(offered, rendered)).toEqual([
      { name: 'get_weather', inputSchema: schema },
      { name: 'weather__get_weather', inputSchema: schema },
    ]);
    expect(parseTools(offered, undefined)).toEqual([{ name: 'get_weather', inputSchema: schema }]);
  });

  it('builds one list per pair of lists, so memos keyed by its identity last the run', () => {
    expect(parseTools(offered, rendered)).toBe(parseTools(offered, rendered));
    expect(parseTools(offered, undefined)).toBe(parseTools(offered, undefined));
    expect(parseTools(offered, undefined)).not.toBe(parseTools(offered, rendered));
    expect(parseTools([...offered], undefined)).not.toBe(parseTools(offered, undefined));
  });
});
