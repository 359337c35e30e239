// Stages: which regions a stage sees, where its instructions go, and whether a transition may
// pass its gates. The run (run/) owns the region state; this module owns the rules.
import { DEFAULT_MAX_TOKENS, regionsForStage } from './blueprint/index.ts';
import type { Blueprint, RegionDecl, RegionKind, StageDecl, TransitionDecl } from './blueprint/types.ts';
import { capabilitiesOf } from './regions/capabilities.ts';
import type { Region } from './regions/types.ts';
import type { StageLedger } from './timeline.ts';
import { nameTable } from './names.ts';
import { IMPLICIT_REGIONS } from './implicit-regions.ts';

/** The stage a blueprint without `[stages]` runs in. */
export const DEFAULT_STAGE = 'main';
/** Attempts a stage's gates share when neither the stage nor the gate sets `max_attempts`. */
export const DEFAULT_MAX_ATTEMPTS = 3;
export { STAGE_PROMPT_KEY } from './regions/pinned.ts';

export function implicitDecl(name: string, kind: RegionKind, extra: Partial<RegionDecl> = {}): RegionDecl {
  return {
    name,
    kind,
    maxTokens: DEFAULT_MAX_TOKENS,
    maxTokensExplicit: false,
    seedImplicit: false,
    required: false,
    requiredMessage: '',
    summarizable: true,
    admission: 'evict',
    loc: { file: '(runtime)', line: 0, column: 0 },
    ...extra,
  };
}

const implicitCache = new Map<string, RegionDecl>();
function implicitFor(name: string): RegionDecl {
  let decl = implicitCache.get(name);
  if (!decl) {
    const spec = IMPLICIT_REGIONS.find((r) => r.name === name)!;
    const extra: Partial<RegionDecl> = {};
    if (spec.budgetShare !== undefined) extra.budgetShare = spec.budgetShare;
    if (spec.maxItems !== undefined) extra.maxItems = spec.maxItems;
    decl = implicitDecl(name, spec.kind, extra);
    implicitCache.set(name, decl);
  }
  return decl;
}

export function isImplicit(decl: RegionDecl): boolean {
  return decl.loc.file === '(runtime)';
}

export function stagesOf(blueprint: Blueprint): StageDecl[] {
  if (blueprint.stages.length > 0) return blueprint.stages;
  return [{ name: DEFAULT_STAGE, transitions: [], loc: { file: 'agent.leviath', line: 1, column: 1 } }];
}

/** A region whose entries are never removed (pinned) keeps a stage prompt for the whole stage. */
const holdsPrompt = (decl: RegionDecl): boolean => !capabilitiesOf(decl.kind).removable;

/**
 * A stage's layout in declaration order, completed with the regions the runtime always carries:
 * a top-level declaration when the stage's own layout omits one, else the implicit default.
 * `stage_instructions` is only added implicitly when the layout has no region that can hold the
 * prompt (one whose entries are never removed: pinned).
 */
export function stageLayout(blueprint: Blueprint, stage: StageDecl): RegionDecl[] {
  const own = blueprint.stages.length > 0 ? regionsForStage(blueprint, stage.name) : blueprint.regions;
  const layout = [...own];
  const has = (name: string) => layout.some((r) => r.name === name);
  for (const { name } of IMPLICIT_REGIONS) {
    if (has(name)) continue;
    if (name === 'stage_instructions' && layout.some(holdsPrompt)) continue;
    layout.push(blueprint.regions.find((r) => r.name === name) ?? implicitFor(name));
  }
  return layout;
}

/** Where the entering stage's prompt goes: `stage_instructions` if declared, else the first region that can hold it (pinned). */
export function instructionsRegion(layout: readonly RegionDecl[]): string {
  if (layout.some((r) => r.name === 'stage_instructions')) return 'stage_instructions';
  return layout.find(holdsPrompt)?.name ?? 'stage_instructions';
}

export function findTransition(stage: StageDecl, to: string): TransitionDecl | undefined {
  return stage.transitions.find((t) => t.to === to);
}

export function maxAttempts(stage: StageDecl, edge: TransitionDecl): number {
  return stage.maxAttempts ?? edge.gate?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
}

export const DEFAULT_GATE_MESSAGE = 'Finish or explicitly drop the open items first.';

/**
 * Why a transition may not pass yet, or [] when it may: each empty `required` region (its
 * required_message) and a checklist gate with open items (its message plus the items, by id).
 */
export function gateRefusals(
  stage: StageDecl,
  edge: TransitionDecl,
  visible: readonly Region[],
  regions: ReadonlyMap<string, Region>,
): string[] {
  const reasons: string[] = [];
  for (const region of visible) {
    if (region.decl.required && region.entries.length === 0) {
      reasons.push(
        region.decl.requiredMessage.replaceAll('{region}', region.name) ||
          `Region ${region.name} is required and still empty; write to it before leaving stage ${stage.name}.`,
      );
    }
  }
  const gateRegion = edge.gate?.requireNoOpenItems;
  if (gateRegion !== undefined) {
    const region = regions.get(gateRegion);
    const checklist = region?.checklist;
    if (checklist) {
      if (checklist.openItems.length > 0) {
        reasons.push(
          `${edge.gate?.message ?? DEFAULT_GATE_MESSAGE} Open in ${gateRegion}: ${checklist.describeOpen()}.`,
        );
      }
    }
  }
  return reasons;
}

export class Ledger {
  readonly byStage: StageLedger = nameTable();

  charge(stage: string, region: string, tokens: number): void {
    if (tokens <= 0) return;
    const row = (this.byStage[stage] ??= nameTable());
    row[region] = (row[region] ?? 0) + tokens;
  }
}
