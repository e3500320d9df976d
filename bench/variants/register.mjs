/**
 * `node --import ./bench/variants/register.mjs …` with TG_BENCH_WITHOUT=plain-yaml,schema-subset: the process runs
 * toolgauge with those modules replaced by stubs that step aside for everything (stubs.mjs), so the bench measures
 * what the code costs without them, with nothing in src/ to switch them off. docs/performance.md says which module
 * stays for which measured reason; these runs repeat that measurement.
 */
import { register } from 'node:module';

const without = (process.env.TG_BENCH_WITHOUT ?? '').split(',').filter(Boolean);
register('./hooks.mjs', import.meta.url, { data: { without } });
