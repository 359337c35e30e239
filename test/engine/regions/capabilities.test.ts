// The per-kind capability table is what stages and blueprint checks ask of a declaration before any
// region exists: every kind's region must do what its row says, and the table must be what decides.
import { describe, expect, it } from 'vitest';
import { REGION_KINDS, type RegionKind } from '../../../src/engine/blueprint/types.ts';
import { resolveBudget } from '../../../src/engine/budget.ts';
import { KIND_CAPABILITIES, type KindCapabilities } from '../../../src/engine/regions/capabilities.ts';
import { createRegion } from '../../../src/engine/regions/index.ts';
import { implicitDecl, instructionsRegion } from '../../../src/engine/stages.ts';
import { append, run, words } from '../../builders.ts';

const SCRIPT = { 'notes.rhai': 'fn render(ctx) { "" }' };
/** Exactly `n` tokens (" alpha" is one token). */

function regionOf(kind: RegionKind) {
  const decl = implicitDecl('notes', kind, { sourceRegion: 'conversation', script: 'notes.rhai' });
  return createRegion(decl, resolveBudget(decl, 128_000), { agent: SCRIPT, encoding: 'o200k_base' }).region;
}

/** Writes three 40-token entries into a 60-token region of `kind`: the change types it answered with. */
function changesWhenFull(kind: RegionKind): string[] {
  const extra =
    kind === 'compact_history' ? ', source_region = "notes"' : kind === 'custom' ? ', script = "notes.rhai"' : '';
  const toml = `[context.regions]\nnotes = { kind = "${kind}", max_tokens = 60${extra} }`;
  const timeline = run(
    toml,
    ['a', 'b', 'c'].map((key) => append('notes', words(40), key)),
    { agent: { 'agent.leviath': toml, ...SCRIPT } },
  );
  return timeline.steps.flatMap((s) => s.changes.map((c) => c.type));
}

describe('region kind capabilities', () => {
  for (const kind of REGION_KINDS) {
    it(`a ${kind} region does what its row says`, () => {
      const caps = KIND_CAPABILITIES[kind];
      const region = regionOf(kind);
      expect(region.kind).toBe(kind);
      expect({
        removable: region.removable,
        keyed: region.keyed,
        checklist: region.checklist !== undefined,
        carriesHistory: region.historySource !== undefined,
        alwaysMessages: region.section === 'messages',
        scripted: !region.messagesAreEntries,
      }).toEqual({
        removable: caps.removable,
        keyed: caps.keyed,
        checklist: caps.checklist,
        carriesHistory: caps.carriesHistory,
        alwaysMessages: caps.alwaysMessages,
        scripted: caps.scripted,
      });
      expect(changesWhenFull(kind).includes('compact')).toBe(caps.summarizesWhenFull);
    });
  }

  it('names the kinds that have each capability', () => {
    const kindsWith = (capability: keyof KindCapabilities, value = true) =>
      REGION_KINDS.filter((kind) => KIND_CAPABILITIES[kind][capability] === value);
    expect(kindsWith('removable', false)).toEqual(['pinned']);
    expect(kindsWith('keyed')).toEqual(['hashmap']);
    expect(kindsWith('checklist')).toEqual(['checklist']);
    expect(kindsWith('carriesHistory')).toEqual(['compact_history']);
    expect(kindsWith('alwaysMessages')).toEqual(['sliding_window']);
    expect(kindsWith('summarizesWhenFull')).toEqual(['compacting', 'compact_history']);
    expect(kindsWith('scripted')).toEqual(['custom']);
  });

  it('the stage prompt goes to the first region that never removes its entries', () => {
    const layout = [
      implicitDecl('notes', 'temporary'),
      implicitDecl('rules', 'pinned'),
      implicitDecl('facts', 'pinned'),
    ];
    expect(instructionsRegion(layout)).toBe('rules');
    expect(instructionsRegion(layout.slice(0, 1))).toBe('stage_instructions');
  });
});
