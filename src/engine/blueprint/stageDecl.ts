// `[stages.<name>]`: system prompt, own layout, transitions with gates, and tool routing.
import type { GateDecl, RegionDecl, RouteOverride, StageDecl, ToolRouting, TransitionDecl } from './types.ts';
import type { KeyPath } from './locate.ts';
import { describe, isTable, positiveInt, text, type Reporter, type Table } from './report.ts';
import { compileRegion } from './regions.ts';
import { didYouMean } from './suggest.ts';
import { nameTable } from '../names.ts';

export const STAGE_KEYS = ['system_prompt', 'context', 'transitions', 'tool_routing', 'max_attempts'];
export const STAGE_CONTEXT_KEYS = ['regions'];
export const TRANSITION_KEYS = ['gate', 'transform'];
export const GATE_KEYS = ['require_no_open_items', 'message', 'max_attempts'];
export const ROUTING_KEYS = ['default_region', 'max_result_tokens', 'overrides', 'max_result_tokens_per_tool'];
export const OVERRIDE_KEYS = ['region', 'max_result_tokens'];

/** Regions of a `regions` table, in declaration order. */
export function compileRegionTable(r: Reporter, raw: unknown, path: KeyPath): RegionDecl[] {
  if (raw === undefined) return [];
  if (!isTable(raw)) {
    r.error('invalid-value', path, `\`${path.join('.')}\` must be a table of regions, not ${describe(raw)}.`, 'value');
    return [];
  }
  const regions: RegionDecl[] = [];
  for (const name of r.inSourceOrder(raw, path)) {
    const region = compileRegion(r, name, raw[name], [...path, name]);
    if (region) regions.push(region);
  }
  return regions;
}

export function compileStage(
  r: Reporter,
  name: string,
  raw: unknown,
  stageNames: readonly string[],
): StageDecl | undefined {
  const path = ['stages', name];
  if (!isTable(raw)) {
    r.error(
      'invalid-value',
      path,
      `Stage "${name}" must be a table ([stages.${name}]), not ${describe(raw)}.`,
      'value',
    );
    return undefined;
  }
  r.unknownKeys(raw, path, STAGE_KEYS, `stage "${name}"`, 'open');
  const stage: StageDecl = {
    name,
    systemPrompt: r.read(raw, 'system_prompt', path, text, 'a string'),
    transitions: compileTransitions(r, raw.transitions, [...path, 'transitions'], stageNames),
    maxAttempts: r.read(raw, 'max_attempts', path, positiveInt, 'a positive whole number'),
    loc: r.loc(path),
  };
  const context = raw.context;
  if (context !== undefined) {
    if (!isTable(context))
      r.error('invalid-value', [...path, 'context'], `\`context\` must be a table, not ${describe(context)}.`, 'value');
    else {
      r.unknownKeys(context, [...path, 'context'], STAGE_CONTEXT_KEYS, `[stages.${name}.context]`, 'open');
      if (context.regions !== undefined)
        stage.regions = compileRegionTable(r, context.regions, [...path, 'context', 'regions']);
    }
  }
  if (raw.tool_routing !== undefined)
    stage.toolRouting = compileRouting(r, raw.tool_routing, [...path, 'tool_routing']);
  return stage;
}

function compileTransitions(r: Reporter, raw: unknown, path: KeyPath, stageNames: readonly string[]): TransitionDecl[] {
  if (raw === undefined) return [];
  if (!isTable(raw)) {
    r.error(
      'invalid-value',
      path,
      `\`transitions\` must be a table keyed by target stage ([${path.join('.')}.<stage>]), not ${describe(raw)}.`,
      'value',
    );
    return [];
  }
  const transitions: TransitionDecl[] = [];
  for (const [to, decl] of Object.entries(raw)) {
    const edge = [...path, to];
    if (!stageNames.includes(to)) {
      r.error(
        'transition-target-undeclared',
        edge,
        `Transition to stage "${to}", which is not declared.${didYouMean(to, stageNames)} Declare [stages.${to}] or fix the name.`,
      );
    }
    if (!isTable(decl)) {
      r.error(
        'invalid-value',
        edge,
        `Transition "${to}" must be a table (it may be empty), not ${describe(decl)}.`,
        'value',
      );
      continue;
    }
    r.unknownKeys(decl, edge, TRANSITION_KEYS, `transition "${to}"`);
    const transition: TransitionDecl = { to, loc: r.loc(edge) };
    if (decl.gate !== undefined) transition.gate = compileGate(r, decl.gate, [...edge, 'gate']);
    if (decl.transform !== undefined) {
      if (decl.transform === 'compact') transition.transform = 'compact';
      else {
        r.error(
          'unknown-transform',
          [...edge, 'transform'],
          `Unknown transform ${describe(decl.transform)}. The only edge transform is "compact".`,
          'value',
        );
      }
    }
    transitions.push(transition);
  }
  return transitions;
}

function compileGate(r: Reporter, raw: unknown, path: KeyPath): GateDecl | undefined {
  if (!isTable(raw)) {
    r.error(
      'invalid-value',
      path,
      `\`gate\` must be a table like { require_no_open_items = "todos", message = "..." }, not ${describe(raw)}.`,
      'value',
    );
    return undefined;
  }
  r.unknownKeys(raw, path, GATE_KEYS, 'a gate');
  return {
    requireNoOpenItems: r.read(raw, 'require_no_open_items', path, text, 'the name of a checklist region'),
    message: r.read(raw, 'message', path, text, 'a string'),
    maxAttempts: r.read(raw, 'max_attempts', path, positiveInt, 'a positive whole number'),
  };
}

function compileRouting(r: Reporter, raw: unknown, path: KeyPath): ToolRouting | undefined {
  if (!isTable(raw)) {
    r.error('invalid-value', path, `\`tool_routing\` must be a table, not ${describe(raw)}.`, 'value');
    return undefined;
  }
  r.unknownKeys(raw, path, ROUTING_KEYS, '[tool_routing]');
  return {
    defaultRegion: r.read(raw, 'default_region', path, text, 'a region name'),
    maxResultTokens: r.read(raw, 'max_result_tokens', path, positiveInt, 'a positive whole number of tokens'),
    overrides: compileOverrides(r, raw.overrides, [...path, 'overrides']),
    maxResultTokensPerTool: compilePerToolCaps(r, raw.max_result_tokens_per_tool, [
      ...path,
      'max_result_tokens_per_tool',
    ]),
  };
}

function compileOverrides(r: Reporter, raw: unknown, path: KeyPath): Record<string, RouteOverride> {
  const overrides: [string, RouteOverride][] = [];
  if (raw === undefined) return nameTable();
  if (!isTable(raw)) {
    r.error('invalid-value', path, `\`overrides\` must be a table keyed by tool name, not ${describe(raw)}.`, 'value');
    return nameTable();
  }
  for (const [tool, value] of Object.entries(raw)) {
    const override = compileOverride(r, tool, value, [...path, tool]);
    if (override) overrides.push([tool, override]);
  }
  return nameTable(overrides);
}

function compileOverride(r: Reporter, tool: string, value: unknown, path: KeyPath): RouteOverride | undefined {
  const invalid = (why: string): undefined => {
    r.error(
      'routing-override-invalid',
      path,
      `Override for \`${tool}\` ${why} Write a region name (${tool} = "codebase") or a table (${tool} = { region = "codebase", max_result_tokens = 20000 }).`,
      'value',
    );
    return undefined;
  };
  if (typeof value === 'string') return value.trim() ? { region: value } : invalid('is an empty string.');
  if (!isTable(value)) return invalid(`is ${describe(value)}, which is neither a region name nor a table.`);
  r.unknownKeys(value, path, OVERRIDE_KEYS, `the override for \`${tool}\``);
  if (!OVERRIDE_KEYS.some((k) => Object.hasOwn(value, k)))
    return invalid('has neither `region` nor `max_result_tokens`.');
  const override: RouteOverride = {};
  const region = r.read(value, 'region', path, text, 'a region name');
  const cap = readCap(r, value, 'max_result_tokens', path);
  if (region !== undefined) override.region = region;
  if (cap !== undefined) override.maxResultTokens = cap;
  return override;
}

function compilePerToolCaps(r: Reporter, raw: unknown, path: KeyPath): Record<string, number> {
  if (raw === undefined) return nameTable();
  if (!isTable(raw)) {
    r.error(
      'invalid-value',
      path,
      `\`max_result_tokens_per_tool\` must be a table like { read_file = 20000 }, not ${describe(raw)}.`,
      'value',
    );
    return nameTable();
  }
  const caps: [string, number][] = [];
  for (const tool of Object.keys(raw)) {
    const cap = readCap(r, raw, tool, path);
    if (cap !== undefined) caps.push([tool, cap]);
  }
  return nameTable(caps);
}

function readCap(r: Reporter, table: Table, key: string, path: KeyPath): number | undefined {
  return r.read(table, key, path, positiveInt, 'a positive whole number of tokens');
}
