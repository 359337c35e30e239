// The kinds' behaviour: each kind's class, made through `createRegion`, so a kind registered here
// (custom regions among them) needs no change to the run (../run/). A kind's facts are in its
// definition (kinds.ts); a caller may bring other behaviour for a kind (ReplayOptions.regionFactories).
import type { RegionDecl, RegionKind } from '../blueprint/types.ts';
import type { ResolvedBudget } from '../budget.ts';
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import { ChecklistRegion } from './checklist.ts';
import { ClearableRegion } from './clearable.ts';
import { CompactHistoryRegion } from './compact-history.ts';
import { CompactingRegion } from './compacting.ts';
import { CustomRegion, customKind } from './custom.ts';
import { HashmapRegion } from './hashmap.ts';
import { PinnedRegion } from './pinned.ts';
import { SlidingWindowRegion } from './sliding-window.ts';
import { TemporaryRegion } from './temporary.ts';
import type { Region, RegionEnv, RegionFactory } from './types.ts';

export type { Region, RegionContext, RegionEnv, RegionFactory, Entry, RenderedMessage, RegionRender } from './types.ts';
export { ChecklistRegion } from './checklist.ts';
export { CompactHistoryRegion } from './compact-history.ts';
export { entryLabel, entryMessage, change, MESSAGE_REGION_NAMES } from './base.ts';

/** One factory per kind: the compiler asks for a line here for every name in REGION_KINDS. */
export const FACTORIES: { readonly [K in RegionKind]: RegionFactory } = Object.freeze({
  temporary: (d, b) => new TemporaryRegion(d, b),
  pinned: (d, b) => new PinnedRegion(d, b),
  sliding_window: (d, b) => new SlidingWindowRegion(d, b),
  compacting: (d, b) => new CompactingRegion(d, b),
  compact_history: (d, b) => new CompactHistoryRegion(d, b),
  clearable: (d, b) => new ClearableRegion(d, b),
  hashmap: (d, b) => new HashmapRegion(d, b),
  checklist: (d, b) => new ChecklistRegion(d, b),
  // Throws CustomScriptError for a missing or broken script; compileBlueprint's checkScript reports it first.
  custom: (d, b, env) => new CustomRegion(d, b, env),
});

/** Behaviour a caller brings for some kinds in place of the built-in one (a test's variant, a host's own custom regions). */
export type RegionFactories = { readonly [K in RegionKind]?: RegionFactory };

/**
 * A custom region whose script cannot be loaded behaves as the DESIGN fallback says for its
 * `persistent` flag: pinned-like when true, temporary-like when false.
 */
class UnscriptedCustomRegion extends BaseRegion {
  readonly definition = customKind;

  /** As the scripted region: persistent is never shed, otherwise temporary's tier. */
  protected override get tier(): number | undefined {
    return this.decl.persistent ? undefined : super.tier;
  }

  override get cache() {
    return this.decl.persistent ? ('always' as const) : ('until-changed' as const);
  }

  protected enforce(): Change[] {
    if (this.decl.persistent) return [];
    return this.evictOldestWhile(() => this.over(), this.overReason());
  }
}

export interface CreatedRegion {
  region: Region;
  /** Set when the region runs without its real behaviour (a custom region whose script did not load). */
  warning?: string;
}

/**
 * Makes the region for `decl`. A custom region whose factory throws (a script that cannot load)
 * gives the plain fallback region and a warning rather than a crash.
 */
export function createRegion(
  decl: RegionDecl,
  budget: ResolvedBudget,
  env: RegionEnv,
  factories: RegionFactories = {},
): CreatedRegion {
  const factory = factories[decl.kind] ?? FACTORIES[decl.kind];
  const as = decl.persistent ? 'pinned (persistent = true)' : 'temporary (persistent = false)';
  let why: string;
  try {
    return { region: factory(decl, budget, env) };
  } catch (error) {
    if (decl.kind !== 'custom') throw error;
    why = `its script could not be loaded (${error instanceof Error ? error.message : String(error)})`;
  }
  return {
    region: new UnscriptedCustomRegion(decl, budget),
    warning: `custom region ${decl.name}: ${why}, so it behaves as ${as} and renders its entries plainly`,
  };
}
