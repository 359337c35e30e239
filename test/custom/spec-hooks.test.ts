// Issue 32: custom-region hooks read the script's answer exactly as the spec words it, and every
// message about what a hook did (the call's result, context_append's answer, the timeline) is true.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../src/engine/scenario.ts';
import { append, run } from '../runtime/helpers.ts';

const words = (n: number, word = 'alpha') => Array.from({ length: n }, () => word).join(' ');
const RENDER = 'fn render(ctx) { let out = []; for e in ctx.entries { out.push(e.content); } #{ system: out } }\n';

describe('6. on_overflow answers indices, which are integers', () => {
  // spec (custom-regions.md): on_overflow "Return an array of entry indices to drop."
  const toml = '[context.regions]\nbrain = { kind = "custom", script = "b.rhai", max_tokens = 6 }\n';
  const traffic: TrafficEvent[] = [append('brain', words(3)), append('brain', words(3, 'beta')), append('brain', words(3, 'gamma'))];
  const overflow = (answer: string) => run(toml, traffic, { agent: { 'agent.leviath': toml, 'b.rhai': `${RENDER}fn on_overflow(ctx) { ${answer} }\n` } }).steps[2]!;

  it('[1] drops entry 1', () => {
    const step = overflow('[1]');
    expect(step.changes).toEqual([{ type: 'evict', region: 'brain', tokens: 3, entries: [words(3, 'beta')], reason: 'over budget 6: chosen by on_overflow' }]);
    expect(step.warnings).toEqual([]);
  });

  it('[1.0] is a float, refused like [1.5]: oldest-first instead, with the same warning', () => {
    for (const answer of ['[1.0]', '[1.5]']) {
      const step = overflow(answer);
      expect(step.changes).toEqual([{ type: 'evict', region: 'brain', tokens: 3, entries: [words(3)], reason: 'over budget 6' }]);
      expect(step.warnings).toEqual(["custom region brain: on_overflow's result[0] must be an integer index, got f64 (b.rhai); evicted oldest-first instead"]);
    }
  });
});
