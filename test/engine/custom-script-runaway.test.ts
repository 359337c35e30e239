// A hook that keeps hitting its limits is switched off, so a runaway script cannot stall a replay.
import { describe, expect, it } from 'vitest';
import { loadCustomHooks, RUNAWAY_STRIKES } from '../../src/engine/custom-script.ts';
import { toRhai } from '../../src/rhai/index.ts';
import type { RhaiMap } from '../../src/rhai/values.ts';

const ctx = toRhai({ entry: { content: 'x', kind: 'text', tokens: 1 } }) as RhaiMap;

function hooks(source: string) {
  return loadCustomHooks('hooks.rhai', { 'hooks.rhai': source }, 'brain');
}

describe('runaway hooks', () => {
  it(`stops calling a hook after ${RUNAWAY_STRIKES} limit failures in a row`, () => {
    const h = hooks('fn render(ctx) { "" }\nfn on_write(ctx) {\n  loop { }\n}');
    const details: string[] = [];
    for (let i = 0; i < RUNAWAY_STRIKES + 2; i++) {
      const called = h.call('on_write', ctx);
      expect(called.ok).toBe(false);
      if (!called.ok) details.push(called.failure.detail);
    }
    expect(details.slice(0, RUNAWAY_STRIKES).every((d) => /too many operations/i.test(d))).toBe(true);
    expect(details[RUNAWAY_STRIKES]).toMatch(
      /^switched off for the rest of the run after 3 calls in a row hit a limit \(Too many operations/,
    );
  });

  it('a success in between resets the count, and ordinary errors never switch a hook off', () => {
    const h = hooks(
      [
        'fn render(ctx) { "" }',
        'fn on_write(ctx) {',
        '  if ctx.entry.content == "spin" { loop { } }',
        '  if ctx.entry.content == "boom" { throw "boom"; }',
        '  true',
        '}',
      ].join('\n'),
    );
    const write = (content: string) =>
      h.call('on_write', toRhai({ entry: { content, kind: 'text', tokens: 1 } }) as RhaiMap);
    expect(write('spin').ok).toBe(false);
    expect(write('spin').ok).toBe(false);
    expect(write('fine')).toMatchObject({ ok: true });
    expect(write('spin').ok).toBe(false);
    expect(write('spin').ok).toBe(false);
    expect(write('fine')).toMatchObject({ ok: true });
    for (let i = 0; i < 5; i++)
      expect(write('boom')).toMatchObject({ ok: false, failure: { detail: expect.stringContaining('boom') } });
    expect(write('fine')).toMatchObject({ ok: true });
  });
});
