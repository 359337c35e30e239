// The four regions the runtime always carries, declared once: their names, what they are when the
// blueprint does not declare them, and why they are there. Routing targets, the stages' layouts,
// assembly's order, the advisor's space and the page's labels all read this list.
import type { RegionKind } from './blueprint/types.ts';

export interface ImplicitRegion {
  readonly name: string;
  readonly kind: RegionKind;
  /** Its share of the window when the blueprint does not size it. */
  readonly budgetShare?: number;
  readonly maxItems?: number;
  /** Why the runtime carries it, in the words the page shows beside an undeclared region. */
  readonly why: string;
}

const DECLARED = [
  {
    name: 'conversation',
    kind: 'sliding_window',
    budgetShare: 0.3,
    maxItems: 40,
    why: 'the runtime always carries it: user and assistant turns land here unless routed elsewhere',
  },
  {
    name: 'tool_results',
    kind: 'sliding_window',
    budgetShare: 0.3,
    maxItems: 40,
    why: 'the runtime always carries it: tool output lands here unless tool_routing sends it elsewhere',
  },
  { name: 'final_output', kind: 'temporary', why: 'the runtime always carries it: it holds the stage’s final answer' },
  {
    name: 'stage_instructions',
    kind: 'pinned',
    why: 'the runtime always carries it: it holds the entering stage’s system_prompt',
  },
] as const satisfies readonly ImplicitRegion[];

export type ImplicitRegionName = (typeof DECLARED)[number]['name'];

export const IMPLICIT_REGIONS: readonly (ImplicitRegion & { readonly name: ImplicitRegionName })[] = DECLARED;

/** The names alone: a tool result or a write may always target these, declared or not. */
export const IMPLICIT_REGION_NAMES: readonly ImplicitRegionName[] = IMPLICIT_REGIONS.map((r) => r.name);

/** The region each entering stage's `system_prompt` goes to. */
export const STAGE_INSTRUCTIONS: ImplicitRegionName = 'stage_instructions';
