// The registry of region kinds. The run creates every region through `createRegion`, so a kind
// registered here (custom regions among them) needs no change to the run (../run/).
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

const factories = new Map<RegionKind, RegionFactory>([
  ['temporary', (d, b) => new TemporaryRegion(d, b)],
  ['pinned', (d, b) => new PinnedRegion(d, b)],
  ['sliding_window', (d, b) => new SlidingWindowRegion(d, b)],
  ['compacting', (d, b) => new CompactingRegion(d, b)],
  ['compact_history', (d, b) => new CompactHistoryRegion(d, b)],
  ['clearable', (d, b) => new ClearableRegion(d, b)],
  ['hashmap', (d, b) => new HashmapRegion(d, b)],
  ['checklist', (d, b) => new ChecklistRegion(d, b)],
  // Throws CustomScriptError for a missing or broken script; compileBlueprint's checkScript reports it first.
  ['custom', (d, b, env) => new CustomRegion(d, b, env)],
]);

/** Plugs a kind in (or replaces one's behaviour): the run only asks a region what it can do, so nothing else changes. */
export function registerRegionKind(kind: RegionKind, factory: RegionFactory): void {
  factories.set(kind, factory);
}

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
  /** Set when the region runs without its real behaviour (an unregistered custom kind). */
  warning?: string;
}

/**
 * Makes the region for `decl`. A kind with no implementation, or a factory that throws (a custom
 * script that cannot load), gives the plain fallback region and a warning rather than a crash.
 */
export function createRegion(decl: RegionDecl, budget: ResolvedBudget, env: RegionEnv): CreatedRegion {
  const factory = factories.get(decl.kind);
  const as = decl.persistent ? 'pinned (persistent = true)' : 'temporary (persistent = false)';
  let why = `no implementation of kind ${decl.kind} is registered`;
  if (factory) {
    try {
      return { region: factory(decl, budget, env) };
    } catch (error) {
      if (decl.kind !== 'custom') throw error;
      why = `its script could not be loaded (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return {
    region: new UnscriptedCustomRegion(decl, budget),
    warning: `custom region ${decl.name}: ${why}, so it behaves as ${as} and renders its entries plainly`,
  };
}
