// The model family's prior factor (as-recorded.ts PRIOR_FACTORS) is measured on the project's own
// committed real fixtures, and this test measures it again from them: every real Claude fixture
// whose calls carry recorded usage and span 2,000 counted tokens or more (the calibration's own
// minimum for a factor) is a source, and the prior is their common slope of recorded prompt tokens
// against counted tokens, each fixture with its own overhead. The recorded prompts are read from the
// files' own usage lines here (input + cache reads + cache writes of each message.id's last line).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRIOR_FACTORS, replayAsRecorded } from '../../src/engine/index.ts';
import { importTrace } from '../../src/import/index.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const dir = new URL('./fixtures/real/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

/** A Claude Code session file's main-agent calls, in order: each message.id's recorded prompt (its last usage). */
function recordedPrompts(name: string): number[] {
  const calls = new Map<string, number>();
  for (const line of text(name).split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Obj;
    const message = obj(e.message);
    if (e.type !== 'assistant' || e.isSidechain === true || message.model === '<synthetic>') continue;
    const u = obj(message.usage);
    calls.set(
      String(message.id),
      num(u.input_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens),
    );
  }
  return [...calls.values()];
}

const claudeFixtures = readdirSync(dir).filter((name) => name.startsWith('claude-code-') && name.endsWith('.jsonl'));

/** Each fixture's calls as (counted tokens of the flat list, recorded prompt tokens). */
const points = new Map(
  claudeFixtures.map((name) => {
    const counted = replayAsRecorded(importTrace(text(name)).scenario).steps.flatMap((s) =>
      s.request ? [s.request.countedTokens] : [],
    );
    const recorded = recordedPrompts(name);
    return [name, { counted, recorded }] as const;
  }),
);

describe("Claude's prior factor", () => {
  it('pairs every call of each fixture with its record (one inference per message.id)', () => {
    for (const [name, { counted, recorded }] of points) {
      expect(counted.length, name).toBe(recorded.length);
      expect(
        recorded.every((r) => r > 0),
        name,
      ).toBe(true);
    }
  });

  it("is the common slope over exactly the fixtures that span 2,000 counted tokens, as the prior's source says", () => {
    const sources = [...points].filter(([, p]) => Math.max(...p.counted) - Math.min(...p.counted) >= 2_000);
    expect(sources.map(([name]) => `test/import/fixtures/real/${name}`).sort()).toEqual(
      PRIOR_FACTORS.claude!.source.split(', ').sort(),
    );
    let sxy = 0;
    let sxx = 0;
    for (const [, { counted, recorded }] of sources) {
      const mx = counted.reduce((a, b) => a + b, 0) / counted.length;
      const my = recorded.reduce((a, b) => a + b, 0) / recorded.length;
      counted.forEach((x, i) => {
        sxy += (x - mx) * (recorded[i]! - my);
        sxx += (x - mx) ** 2;
      });
    }
    expect(PRIOR_FACTORS.claude!.factor).toBeCloseTo(sxy / sxx, 3);
  });
});
