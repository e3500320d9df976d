import { describe, expect, it } from 'vitest';
import { builtinServers } from '../../mock-servers/mcp/index.js';
import { providerLoaders } from '../../providers/index.js';
import { providerFactories } from '../../providers/provider-factories.js';
import { resolveProviders } from '../plugins/index.js';
import { BUILTIN_SERVER_NAMES } from './load-suite.js';

describe('lazy registries', () => {
  it('list the bundled MCP servers by the same names as the registry', () => {
    expect([...BUILTIN_SERVER_NAMES].sort()).toEqual(Object.keys(builtinServers).sort());
  });

  it('name the same factories as the providers registry', async () => {
    expect(Object.keys(providerLoaders).sort()).toEqual(Object.keys(providerFactories).sort());
    for (const [prefix, load] of Object.entries(providerLoaders)) {
      expect(await load()).toBe(providerFactories[prefix as keyof typeof providerFactories]);
    }
  });

  it('resolves a simulated provider and rejects an unknown prefix listing the valid ones', async () => {
    const [slot] = await resolveProviders(['sim:oracle'], '.', () => 'cfg');
    expect(slot?.provider.simulated).toBe(true);
    await expect(resolveProviders(['nope:x'], '.', () => 'cfg')).rejects.toThrow(/unknown provider 'nope:x'.*openai/);
  });
});
