// Every registered region kind has every part of its definition (regions/<kind>.ts): a tier, a
// section rule, a full capability set, an editor doc, and a doc for every key its reader reads; and
// what the rest of the engine derives from the definition (the region the factory makes, the
// blueprint reader's key list) agrees with it. The editor's side is in test/ui/monaco.
import { describe, expect, it } from 'vitest';
import { compileBlueprint } from '../../../src/engine/blueprint/index.ts';
import { Reporter, type Table } from '../../../src/engine/blueprint/report.ts';
import { REGION_KINDS, type RegionKind } from '../../../src/engine/blueprint/types.ts';
import { resolveBudget } from '../../../src/engine/budget.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import { createRegion } from '../../../src/engine/regions/index.ts';
import { ABILITIES, KINDS, SECTION_RULES, kindKeys } from '../../../src/engine/regions/kinds.ts';
import { implicitDecl } from '../../../src/engine/stages.ts';

const SCRIPT = { 'notes.rhai': 'fn render(ctx) { "" }' };

/** A table that records every key read from it (the values are all absent, so readers take their defaults). */
function recordingTable(): { table: Table; read: Set<string> } {
  const read = new Set<string>();
  const table = new Proxy({} as Table, {
    get: (_, key) => {
      if (typeof key === 'string') read.add(key);
      return undefined;
    },
  });
  return { table, read };
}

function unknownKeys(kind: RegionKind, keys: readonly string[]): string[] {
  const lines = keys.map((key) => `${key} = 1`).join('\n');
  const agent = { 'agent.leviath': `[context.regions.notes]\nkind = "${kind}"\n${lines}\n` };
  return compileBlueprint(agent)
    .diagnostics.filter((d) => d.code === 'unknown-key')
    .map((d) => d.path ?? '');
}

describe('region kind definitions', () => {
  it('registers a definition under each kind name, and only those', () => {
    expect(Object.keys(KINDS).sort()).toEqual([...REGION_KINDS].sort());
    for (const kind of REGION_KINDS) expect(KINDS[kind].kind).toBe(kind);
  });

  for (const kind of REGION_KINDS) {
    describe(kind, () => {
      const definition = KINDS[kind];

      it('has a cascade tier (a positive whole number, or null: never shed) and a section rule', () => {
        expect(definition).toHaveProperty('tier');
        if (definition.tier !== null) expect(Number.isInteger(definition.tier) && definition.tier > 0).toBe(true);
        expect(SECTION_RULES).toContain(definition.section);
      });

      it('says yes or no to every capability', () => {
        expect(Object.keys(definition.abilities).sort()).toEqual([...ABILITIES].sort());
        for (const ability of ABILITIES) expect(typeof definition.abilities[ability]).toBe('boolean');
      });

      it('has an editor doc for itself, its aliases and every key of its own', () => {
        expect(definition.doc.trim()).not.toBe('');
        for (const doc of Object.values(definition.aliases ?? {})) expect(doc.trim()).not.toBe('');
        for (const [key, doc] of Object.entries(definition.keys)) {
          expect(doc.meaning.trim(), key).not.toBe('');
          for (const value of Object.values(doc.values ?? {})) expect(value.trim(), key).not.toBe('');
        }
      });

      it('reads only the keys it documents, and the blueprint reader accepts exactly those', () => {
        const { table, read } = recordingTable();
        const decl = implicitDecl('notes', kind);
        definition.read?.(new Reporter('agent.leviath', undefined), table, ['context', 'regions', 'notes'], decl);
        expect([...read].filter((key) => !kindKeys(kind).includes(key))).toEqual([]);
        expect(unknownKeys(kind, kindKeys(kind))).toEqual([]);
        const others = [...new Set(REGION_KINDS.flatMap(kindKeys))].filter((key) => !kindKeys(kind).includes(key));
        expect(unknownKeys(kind, others)).toEqual(others.map((key) => `context.regions.notes.${key}`));
      });

      it('makes regions that are this kind, at its tier, in its section', () => {
        const make = (name: string) => {
          const decl = implicitDecl(name, kind, { sourceRegion: 'conversation', script: 'notes.rhai' });
          return createRegion(decl, resolveBudget(decl, 128_000), {
            agent: SCRIPT,
            encoding: 'o200k_base',
            loadCustomHooks: RHAI.loadCustomHooks,
          });
        };
        const notes = make('notes');
        expect(notes.warning).toBeUndefined();
        expect(notes.region.kind).toBe(kind);
        expect(notes.region.cascadeTier).toBe(definition.tier ?? undefined);
        const byName = {
          'by-name': ['system', 'messages'],
          messages: ['messages', 'messages'],
          system: ['system', 'system'],
        };
        const [plain, conversation] = byName[definition.section];
        expect(notes.region.section).toBe(plain);
        expect(make('conversation').region.section).toBe(conversation);
      });
    });
  }
});
