// Checks across declarations: seeds against the working directory and [safe_commands], scripts
// against the agent directory, gates, routing, source regions and file tracking.
import { IMPLICIT_REGION_NAMES } from '../implicit-regions.ts';
import type { Blueprint, RegionDecl, StageDecl } from './types.ts';
import type { KeyPath } from './locate.ts';
import type { Reporter } from './report.ts';
import type { ScriptChecker, ScriptFinding } from './scriptCheck.ts';
import { normalizeRelative } from './paths.ts';
import { didYouMean } from './suggest.ts';
import { fmt } from '../format.ts';
import { capabilitiesOf } from '../regions/capabilities.ts';
import { resolveSeed, taskSeedFinding, type SeedInputs } from '../seeds.ts';

/** Targets the runtime always carries, valid in every stage whatever its layout. */
/** A routing target that needs no declaration: the regions the runtime always carries. */
export const ALWAYS_VALID_TARGETS = IMPLICIT_REGION_NAMES;

/** One `regions` table: the top-level one (no stage) or a stage's own layout. */
export interface Layout {
  stage?: string;
  regions: RegionDecl[];
  path: KeyPath;
}

export interface CheckInput {
  blueprint: Blueprint;
  layouts: Layout[];
  agent: Record<string, string>;
  seedInputs: SeedInputs;
  checkScript?: ScriptChecker;
  /** The model's window when known (a scenario names its model); an agent directory alone has none. */
  window?: { tokens: number; model: string };
  regionsForStage: (stage: string | undefined) => RegionDecl[];
}

export function runChecks(r: Reporter, input: CheckInput): void {
  checkFileTracking(r, input); // first: it settles which hashmap the runtime writes records to
  for (const layout of input.layouts) {
    for (const region of layout.regions) {
      const path = [...layout.path, region.name];
      checkSeed(r, input, region, path);
      if (region.seed !== undefined && capabilitiesOf(region.kind).checklist) checkChecklistSeed(r, region, path);
      if (capabilitiesOf(region.kind).scripted) checkScript(r, input, region, path);
      if (region.sourceRegion !== undefined) checkSourceRegion(r, input, region, path);
      if (region.admission === 'reject') checkRejectRuntimeWrites(r, input, region, path);
      if (!region.summarizable) checkSummarizable(r, region, path);
      if (region.minTokens !== undefined && input.window) checkMinTokensFitWindow(r, input.window, region, path);
    }
  }
  checkTaskSeeded(r, input);
  for (const stage of input.blueprint.stages) {
    checkGates(r, input, stage);
    checkAttempts(r, input, stage);
    checkRouting(r, input, stage);
  }
}

/** A checklist is written only through the todo tools, so a seed has nowhere to go (the run drops it). */
function checkChecklistSeed(r: Reporter, region: RegionDecl, regionPath: KeyPath): void {
  const what = region.seedImplicit
    ? `a region named "${region.name}" is seeded from the task implicitly, but it`
    : `region "${region.name}"`;
  r.add(
    'checklist-seed-ignored',
    'warning',
    region.seedImplicit ? regionPath : [...regionPath, 'seed'],
    `The seed is dropped and the checklist starts empty: ${what} is a checklist, which holds only items written with todo_add ` +
      '(the state cannot drift from what the model believes it wrote). Seed a pinned region with the text instead, or have the agent add the items.',
    region.seedImplicit ? 'key' : 'value',
  );
}

function allRegions(input: CheckInput): RegionDecl[] {
  return input.layouts.flatMap((l) => l.regions);
}

function declaredNames(input: CheckInput): string[] {
  return [...new Set(allRegions(input).map((r) => r.name))];
}

/** Every finding about a region's seed, from seeds.ts: the same function a run seeds with. */
function checkSeed(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  if (!region.seed) return;
  const seedPath = [...regionPath, 'seed'];
  for (const finding of resolveSeed(input.blueprint, region, input.seedInputs).findings) {
    const at = [...seedPath, ...finding.at];
    // A string seed has no sub-key to point at: the finding sits on the seed itself.
    r.add(
      finding.code,
      finding.severity,
      r.has(at) || finding.at.length === 0 ? at : seedPath,
      finding.message,
      'value',
    );
  }
}

/** What the runtime itself writes into a region, with no agent asking: a reject region refuses it unseen by the model. */
function runtimeWrites(input: CheckInput, region: RegionDecl): string[] {
  const writes: string[] = [];
  if (region.name === 'conversation') writes.push('every user turn, assistant reply and gate nudge');
  const routedHere = input.blueprint.stages.some((stage) => {
    const routing = stage.toolRouting;
    return (
      routing?.defaultRegion === region.name ||
      Object.values(routing?.overrides ?? {}).some((o) => o.region === region.name)
    );
  });
  // A result routed into a system-section region that refuses it comes back as the call's result, so
  // the model reads the refusal; into the message stream it would leave the call unanswered.
  const inMessages = capabilitiesOf(region.kind).alwaysMessages || region.name === 'tool_results';
  if (region.name === 'tool_results' || (routedHere && inMessages)) writes.push('tool results');
  if (capabilitiesOf(region.kind).carriesHistory) writes.push('the summary carried at each transition');
  if (input.blueprint.fileTracking?.enabled && input.blueprint.fileTracking.region === region.name)
    writes.push('file-tracking records');
  return writes;
}

function checkRejectRuntimeWrites(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  const writes = runtimeWrites(input, region);
  if (writes.length === 0) return;
  r.add(
    'reject-runtime-writes',
    'warning',
    [...regionPath, 'admission'],
    `Region "${region.name}" has admission = "reject" and receives ${writes.join(', ')}, which the runtime writes without an agent asking. ` +
      "One that does not fit is refused: the timeline shows a warning with its size and the region's fill, but nothing tells the model. " +
      'Use admission = "evict" here, or give the region room.',
    'value',
  );
}

/** The kinds whose own rule summarizes, which `summarizable = false` does not stop. */
function summarizesItself(region: RegionDecl): string | undefined {
  if (capabilitiesOf(region.kind).summarizesWhenFull)
    return `a ${region.kind} region still summarizes its oldest entries when it fills`;
  // Only a sliding_window has a strategy.
  if (region.strategy === 'compact')
    return 'a sliding_window with strategy = "compact" still folds its oldest entries into a summary';
  return undefined;
}

function checkSummarizable(r: Reporter, region: RegionDecl, regionPath: KeyPath): void {
  const own = summarizesItself(region);
  if (own === undefined) return;
  r.add(
    'summarizable-kind-still-summarizes',
    'info',
    [...regionPath, 'summarizable'],
    `summarizable = false keeps an edge transform = "compact" from paraphrasing region "${region.name}"; it does not stop the region's own kind: ${own}. ` +
      'To keep its content verbatim, use a kind that evicts instead (temporary, sliding_window).',
    'value',
  );
}

function checkMinTokensFitWindow(
  r: Reporter,
  window: { tokens: number; model: string },
  region: RegionDecl,
  regionPath: KeyPath,
): void {
  if (region.minTokens! <= window.tokens) return;
  // A written max_tokens is the hard limit (budget.ts): under the window, the floor cannot outgrow it.
  if (region.maxTokensExplicit && region.maxTokens <= window.tokens) return;
  r.add(
    'min-tokens-over-window',
    'warning',
    [...regionPath, 'min_tokens'],
    `\`min_tokens\` (${fmt(region.minTokens!)}) is above the whole context window of ${window.model} (${fmt(window.tokens)} tokens), so region "${region.name}" ` +
      'may grow past what any request can hold and the cascade sheds it to fit. Lower min_tokens below the window, or pick a model with a larger one.',
    'value',
  );
}

function checkScript(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  if (region.script === undefined) {
    r.error(
      'custom-script-missing',
      regionPath,
      `Custom region "${region.name}" needs a script: add script = "context_hooks/${region.name}.rhai" (relative to the agent directory) defining fn render(ctx).`,
    );
    return;
  }
  const path = [...regionPath, 'script'];
  const file = normalizeRelative(region.script);
  if (file === undefined) {
    r.error(
      'script-outside-agent-dir',
      path,
      `Script "${region.script}" is outside the agent directory. Scripts must live in the blueprint's own directory (there is no [read_paths] escape for code): move it there and use a relative path.`,
      'value',
    );
    return;
  }
  const found = [file, region.script].find((f) => f !== undefined && Object.hasOwn(input.agent, f));
  const source = found === undefined ? undefined : input.agent[found];
  if (source === undefined) {
    r.error(
      'custom-script-missing',
      path,
      `Script "${region.script}" for custom region "${region.name}" does not exist in the agent directory. Create it (with fn render(ctx)) or fix the path.`,
      'value',
    );
    return;
  }
  for (const finding of runScriptCheck(input.checkScript, source, file, input.agent)) {
    r.diagnostics.push({
      code: finding.code,
      severity: 'error',
      message: finding.message,
      file: finding.file ?? file,
      line: finding.line,
      column: finding.column,
      path: '',
    });
  }
}

// A checker that throws (a parser overwhelmed by a pathological script) still yields a finding.
function runScriptCheck(
  check: ScriptChecker | undefined,
  source: string,
  file: string,
  agent: Readonly<Record<string, string>>,
): ScriptFinding[] {
  if (!check) return [];
  try {
    return check(source, file, agent);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return [
      {
        code: 'custom-script-invalid',
        message: `${file} could not be checked (${reason}). Simplify the script.`,
        line: 1,
        column: 1,
      },
    ];
  }
}

function checkSourceRegion(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  const names = declaredNames(input);
  if (names.includes(region.sourceRegion!)) return;
  r.error(
    'source-region-undeclared',
    [...regionPath, 'source_region'],
    `source_region "${region.sourceRegion}" names no declared region.${didYouMean(region.sourceRegion!, names)} Name the region whose summaries roll forward.`,
    'value',
  );
}

function checkTaskSeeded(r: Reporter, input: CheckInput): void {
  const finding = taskSeedFinding(allRegions(input), input.seedInputs.inputs);
  if (finding)
    r.add('task-not-seeded', finding.severity, input.layouts[0]?.path ?? ['context', 'regions'], finding.message);
}

function checkGates(r: Reporter, input: CheckInput, stage: StageDecl): void {
  const names = declaredNames(input);
  for (const transition of stage.transitions) {
    const wanted = transition.gate?.requireNoOpenItems;
    if (wanted === undefined) continue;
    const path = ['stages', stage.name, 'transitions', transition.to, 'gate', 'require_no_open_items'];
    const region =
      input.regionsForStage(stage.name).find((x) => x.name === wanted) ??
      allRegions(input).find((x) => x.name === wanted);
    if (!region) {
      r.error(
        'gate-region-undeclared',
        path,
        `Gate requires no open items in "${wanted}", but no stage declares a region by that name, so it would always pass.${didYouMean(wanted, names)} Declare ${wanted} = { kind = "checklist" } or fix the name.`,
        'value',
      );
    } else if (!capabilitiesOf(region.kind).checklist) {
      r.error(
        'gate-region-not-checklist',
        path,
        `Gate requires no open items in "${wanted}", which is a ${region.kind} region; only a checklist has open items, so the gate would always pass. Make ${wanted} kind = "checklist" or gate on a checklist.`,
        'value',
      );
    } else if (!input.regionsForStage(stage.name).some((x) => x.name === wanted)) {
      r.error(
        'gate-region-not-visible',
        path,
        `Gate requires no open items in "${wanted}", but ${notVisibleWhy(input, stage, wanted)}, so todo_add and todo_done ` +
          'cannot reach it there: the gate would pass at once on an empty checklist, or nudge the agent to close items it cannot see until max_attempts runs out. ' +
          `Add ${wanted} to [stages.${stage.name}.context.regions], or gate on a checklist stage "${stage.name}" declares.`,
        'value',
      );
    }
  }
}

/** Why a stage cannot see a region declared elsewhere: which layouts have it. */
function notVisibleWhy(input: CheckInput, stage: StageDecl, name: string): string {
  const seen = input.layouts
    .filter((l) => l.stage !== undefined && l.regions.some((x) => x.name === name))
    .map((l) => `"${l.stage}"`);
  const where = seen.length
    ? `only stage ${seen.join(', ')} declare${seen.length === 1 ? 's' : ''} it`
    : 'it is declared only at the top level and every stage declares its own layout without it';
  return `stage "${stage.name}" cannot see it (${where})`;
}

/**
 * max_attempts counts refusals, and the attempt that would be refused for the n-th time moves on:
 * at 1 that is the first one, so the gates and required regions of the stage never hold it back.
 */
function checkAttempts(r: Reporter, input: CheckInput, stage: StageDecl): void {
  const gated =
    stage.transitions.some((t) => t.gate?.requireNoOpenItems !== undefined) ||
    input.regionsForStage(stage.name).some((x) => x.required);
  if (!gated || stage.transitions.length === 0) return;
  const one = (path: KeyPath, whose: string) =>
    r.add(
      'max-attempts-never-refuses',
      'warning',
      path,
      `max_attempts = 1 ${whose}: the first attempt that would be refused moves on instead (with a warning on the timeline), so the gate never refuses ` +
        'and the agent is never nudged. Set max_attempts = 2 or more to refuse at least once, or remove the gate.',
      'value',
    );
  if (stage.maxAttempts === 1) return one(['stages', stage.name, 'max_attempts'], `for stage "${stage.name}"`);
  if (stage.maxAttempts !== undefined) return;
  for (const t of stage.transitions) {
    if (t.gate?.maxAttempts === 1)
      one(['stages', stage.name, 'transitions', t.to, 'gate', 'max_attempts'], `on the gate to "${t.to}"`);
  }
}

function checkRouting(r: Reporter, input: CheckInput, stage: StageDecl): void {
  const routing = stage.toolRouting;
  if (!routing) return;
  const base = ['stages', stage.name, 'tool_routing'];
  const visible = input.regionsForStage(stage.name).map((x) => x.name);
  const check = (target: string, path: KeyPath, what: string): void => {
    if (visible.includes(target) || (ALWAYS_VALID_TARGETS as readonly string[]).includes(target)) return;
    const declaredElsewhere = declaredNames(input).includes(target);
    const where = stage.regions !== undefined ? `[stages.${stage.name}.context.regions]` : '[context.regions]';
    const reason = declaredElsewhere
      ? `stage "${stage.name}" cannot see region "${target}" (its layout leaves it out), so results written there could not be read back. Add ${target} to ${where}.`
      : `no region named "${target}" is declared.${didYouMean(target, [...visible, ...ALWAYS_VALID_TARGETS])} Declare it in ${where} or route to a region stage "${stage.name}" can see.`;
    r.error('routing-target-not-visible', path, `${what} routes into "${target}", but ${reason}`, 'value');
  };
  // A checklist holds todo items only (todo_add), so it refuses every tool result routed into it.
  const intoChecklist = (target: string, path: KeyPath, what: string): void => {
    const region = input.regionsForStage(stage.name).find((x) => x.name === target);
    if (!region || !capabilitiesOf(region.kind).checklist) return;
    r.add(
      'routing-into-checklist',
      'warning',
      path,
      `${what} routes tool results into "${target}", a checklist: a checklist holds only todo items (todo_add), so every result routed there is refused. ` +
        'Route them to tool_results or to a temporary, sliding_window or hashmap region.',
      'value',
    );
  };
  if (routing.defaultRegion !== undefined) {
    check(routing.defaultRegion, [...base, 'default_region'], 'default_region');
    intoChecklist(routing.defaultRegion, [...base, 'default_region'], 'default_region');
  }
  for (const [tool, override] of Object.entries(routing.overrides)) {
    if (override.region === undefined) continue;
    const path = [...base, 'overrides', tool];
    // A table override points at its `region` key's value, a plain name at the value itself.
    const at = r.has([...path, 'region']) ? [...path, 'region'] : path;
    check(override.region, at, `The override for \`${tool}\``);
    intoChecklist(override.region, at, `The override for \`${tool}\``);
  }
}

function checkFileTracking(r: Reporter, input: CheckInput): void {
  const tracking = input.blueprint.fileTracking;
  if (!tracking?.enabled) return;
  const path = ['context', 'file_tracking'];
  const regions = allRegions(input);
  if (tracking.region !== undefined) {
    const region = regions.find((x) => x.name === tracking.region);
    if (region && capabilitiesOf(region.kind).keyed) return;
    const problem = region
      ? `"${tracking.region}" is a ${region.kind} region`
      : `no region named "${tracking.region}" is declared`;
    r.error(
      'file-tracking-needs-hashmap',
      [...path, 'region'],
      `[context.file_tracking] needs a hashmap region, and ${problem}. Point region at a kind = "hashmap" region.`,
      'value',
    );
    return;
  }
  const hashmap = regions.find((x) => capabilitiesOf(x.kind).keyed);
  if (hashmap) {
    tracking.region = hashmap.name;
    return;
  }
  r.error(
    'file-tracking-needs-hashmap',
    path,
    '[context.file_tracking] requires a hashmap region to record files in, and none is declared. Add files = { kind = "hashmap" } (or set enabled = false).',
  );
}
