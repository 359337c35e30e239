// fast-check arbitraries shared by the fuzz suite: blueprints written from the spec's grammar,
// broken blueprints, and scenarios with random traffic (including bad references).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { REGION_KINDS } from '../../src/engine/blueprint/types.ts';
import { MAX_REGIONS } from '../../src/engine/limits.ts';
import { ScenarioSchema, type Scenario, type TrafficEvent } from '../../src/engine/scenario.ts';

export { SEED } from './harness.ts';

const hook = (name: string): string =>
  readFileSync(new URL(`../../src/scenarios/hooks/${name}`, import.meta.url), 'utf8');
export const SCRIPTS: Record<string, string> = {
  'context_hooks/brain.rhai': hook('brain.rhai'),
  'context_hooks/sliding_window.rhai': hook('sliding_window.rhai'),
  'context_hooks/temporary.rhai': hook('temporary.rhai'),
};

export const WORKDIR: Record<string, string> = {
  'README.md': '# Demo\nA small project.\n',
  'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n',
  'src/main.rs': 'fn main() { println!("hi"); }\n',
};

const REGION_NAMES = [
  'task',
  'codebase',
  'notes',
  'scratch',
  'findings',
  'todos',
  'history',
  'sources',
  'brain',
  'stage_instructions',
  'conversation',
  'tool_results',
];
const STAGE_NAMES = ['analyze', 'implement', 'review'];
export const TOOL_NAMES = ['read_file', 'grep', 'bash', 'shell', 'fetch', 'web_search', 'edit'];

export interface RegionSpec {
  name: string;
  kind: (typeof REGION_KINDS)[number] | undefined;
  keys: [string, string][];
}

export interface BlueprintSpec {
  regions: RegionSpec[];
  stages: { name: string; lines: string[] }[];
}

const percent = (min: number, max: number) => fc.integer({ min, max }).map((n) => `"${n}%"`);
const small = (min: number, max: number) => fc.integer({ min, max }).map(String);

/** Keys valid for a kind, as `key = value` pairs (the value already TOML). */
function kindKeys(kind: RegionSpec['kind'], otherRegions: string[]): fc.Arbitrary<[string, string][]> {
  const optional: fc.Arbitrary<[string, string] | null>[] = [];
  const opt = (key: string, value: fc.Arbitrary<string>) =>
    optional.push(
      fc.option(
        value.map((v): [string, string] => [key, v]),
        { nil: null },
      ),
    );
  if (kind === 'sliding_window') {
    opt('max_items', small(1, 15));
    opt('strategy', fc.constantFrom('"per_item"', '"bulk"', '"compact"'));
    opt('overflow', small(1, 6));
    opt('compact_count', small(1, 6));
  }
  if (kind === 'compacting' || kind === 'compact_history') {
    opt('compact_at', percent(10, 100));
    opt('threshold_tokens', small(200, 20_000));
  }
  if (kind === 'compact_history' && otherRegions.length)
    opt(
      'source_region',
      fc.constantFrom(...otherRegions).map((n) => `"${n}"`),
    );
  if (kind === 'hashmap') opt('max_entries', small(1, 10));
  if (kind === 'custom') {
    optional.push(fc.constantFrom(...Object.keys(SCRIPTS)).map((s): [string, string] => ['script', `"${s}"`]));
    opt('persistent', fc.boolean().map(String));
  }
  opt('budget', percent(1, 60));
  opt('max_tokens', small(50, 20_000));
  opt('min_tokens', small(10, 2_000));
  opt('required', fc.boolean().map(String));
  opt('summarizable', fc.boolean().map(String));
  opt('admission', fc.constantFrom('"evict"', '"reject"'));
  opt(
    'seed',
    fc.constantFrom(
      '"task_input"',
      '{ literal = "Never edit generated files." }',
      '{ files = ["README.md"] }',
      '{ glob = "src/*.rs" }',
      '{ caller = "brief" }',
      '"input"',
    ),
  );
  return fc.tuple(...optional).map((pairs) => pairs.filter((p): p is [string, string] => p !== null));
}

const regionSpec = (name: string, names: string[]): fc.Arbitrary<RegionSpec> =>
  fc.constantFrom<RegionSpec['kind']>(undefined, ...REGION_KINDS).chain((kind) =>
    kindKeys(
      kind,
      names.filter((n) => n !== name),
    ).map((keys) => ({ name, kind, keys })),
  );

const regionsArb: fc.Arbitrary<RegionSpec[]> = fc
  .uniqueArray(fc.constantFrom(...REGION_NAMES), { minLength: 1, maxLength: 7 })
  .chain((names) => fc.tuple(...names.map((n) => regionSpec(n, names))));

function stageLines(name: string, regions: RegionSpec[], stages: string[]): fc.Arbitrary<string[]> {
  const names = regions.map((r) => r.name);
  const checklists = regions.filter((r) => r.kind === 'checklist').map((r) => r.name);
  const header = `[stages.${name}]`;
  const prompt = fc.option(fc.constantFrom('Read the code. Do not edit.', 'Make the change.', 'Review it.'), {
    nil: null,
  });
  const routing = fc.option(
    fc.record({
      defaultRegion: fc.option(fc.constantFrom(...names, 'tool_results', 'conversation'), { nil: null }),
      max: fc.option(fc.integer({ min: 50, max: 5_000 }), { nil: null }),
      override: fc.option(
        fc.tuple(
          fc.constantFrom(...TOOL_NAMES),
          fc.constantFrom(...names),
          fc.option(fc.integer({ min: 50, max: 8_000 }), { nil: null }),
        ),
        { nil: null },
      ),
      perTool: fc.option(fc.tuple(fc.constantFrom(...TOOL_NAMES), fc.integer({ min: 50, max: 8_000 })), { nil: null }),
    }),
    { nil: null },
  );
  const others = stages.filter((s) => s !== name);
  const transitions = others.length
    ? fc.subarray(others).chain((targets) =>
        fc.tuple(
          ...targets.map((to) =>
            fc.record({
              to: fc.constant(to),
              gate: checklists.length ? fc.option(fc.constantFrom(...checklists), { nil: null }) : fc.constant(null),
              attempts: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
              compact: fc.boolean(),
            }),
          ),
        ),
      )
    : fc.constant([]);
  return fc.tuple(prompt, routing, transitions).map(([p, r, ts]) => {
    const lines = [header];
    if (p) lines.push(`system_prompt = "${p}"`);
    if (r) {
      lines.push(`[stages.${name}.tool_routing]`);
      if (r.defaultRegion) lines.push(`default_region = "${r.defaultRegion}"`);
      if (r.max) lines.push(`max_result_tokens = ${r.max}`);
      if (r.override) {
        const [tool, region, cap] = r.override;
        lines.push(
          `[stages.${name}.tool_routing.overrides]`,
          cap ? `${tool} = { region = "${region}", max_result_tokens = ${cap} }` : `${tool} = "${region}"`,
        );
      }
      if (r.perTool)
        lines.push(`[stages.${name}.tool_routing.max_result_tokens_per_tool]`, `${r.perTool[0]} = ${r.perTool[1]}`);
    }
    for (const t of ts) {
      lines.push(`[stages.${name}.transitions.${t.to}]`);
      if (t.gate)
        lines.push(
          `gate = { require_no_open_items = "${t.gate}"${t.attempts ? `, max_attempts = ${t.attempts}` : ''} }`,
        );
      if (t.compact) lines.push('transform = "compact"');
    }
    return lines;
  });
}

export const blueprintSpecArb: fc.Arbitrary<BlueprintSpec> = regionsArb.chain((regions) =>
  fc.subarray(STAGE_NAMES, { minLength: 0 }).chain((stages) =>
    fc.tuple(...stages.map((s) => stageLines(s, regions, stages))).map((lines) => ({
      regions,
      stages: stages.map((name, i) => ({ name, lines: lines[i]! })),
    })),
  ),
);

/** Both TOML forms the spec uses: inline tables and `[context.regions.name]` sections. */
export function blueprintToml(spec: BlueprintSpec, sections = false): string {
  const out: string[] = [];
  if (spec.regions.some((r) => r.keys.some(([k, v]) => k === 'seed' && v.includes('command'))))
    out.push('safe_commands = ["git log"]');
  if (sections) {
    for (const r of spec.regions) {
      out.push(`[context.regions.${r.name}]`);
      if (r.kind) out.push(`kind = "${r.kind}"`);
      for (const [k, v] of r.keys) out.push(`${k} = ${v}`);
    }
  } else {
    out.push('[context.regions]');
    for (const r of spec.regions) {
      const keys = [...(r.kind ? [['kind', `"${r.kind}"`]] : []), ...r.keys].map(([k, v]) => `${k} = ${v}`);
      out.push(`${r.name} = { ${keys.join(', ')} }`);
    }
  }
  for (const s of spec.stages) out.push('', ...s.lines);
  return `${out.join('\n')}\n`;
}

export const validBlueprintArb: fc.Arbitrary<string> = fc
  .tuple(blueprintSpecArb, fc.boolean())
  .map(([spec, sections]) => blueprintToml(spec, sections));

// ---- broken blueprints ------------------------------------------------------------------------

/**
 * Text a shared file can hold that a terminal obeys or a viewer reorders (ECMA-48 escape sequences:
 * window title, clear screen, colour; C1's CSI; bidi overrides and isolates; DEL, NUL, CR, U+2028).
 */
export const CONTROL = [
  '\u001b]0;title\u0007',
  '\u001b[2J',
  '\u001b[31m',
  '\u009b1J',
  '\u202e',
  '\u2066',
  '\u061c',
  '\u007f',
  '\u0000',
  '\r',
  '\u2028',
  '\u0085',
];
/** Numbers a TOML file may hold that are too large for the playground (64-bit, and past it). */
const HUGE_NUMBERS = [
  '9223372036854775807',
  '-9223372036854775808',
  '0x7fffffffffffffff',
  '9_007_199_254_740_993',
  '99999999999999999999999',
];
const WRONG_VALUES = [
  '12',
  '"12"',
  'true',
  '[1, 2]',
  '{ a = 1 }',
  '"120%"',
  '"-5%"',
  '"%"',
  '-3',
  '1.5',
  '"pinnned"',
  '"per-item"',
  '1979-05-27',
  '""',
  'nan',
  'inf',
  ...HUGE_NUMBERS,
];
const JUNK = [
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '=',
  '\n',
  '#',
  '.',
  ',',
  '[[',
  ']]',
  '"""',
  "'''",
  '\\',
  '\u0000',
  '\uFEFF',
  '\uD800',
  'é',
  '🙂',
  '\t',
  '\r',
  ...CONTROL,
];

/** Text made of control sequences and a little ordinary text, for names and contents. */
export const controlText = fc
  .array(fc.constantFrom(...CONTROL, 'a', ' ', 'é', '漢'), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

/** Mutations a person (or a bad paste) makes to a blueprint. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...JUNK), fc.string({ maxLength: 6 })),
  }),
  fc.record({ op: fc.constant('value' as const), at: fc.nat(), text: fc.constantFrom(...WRONG_VALUES) }),
  fc.record({
    op: fc.constant('key' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      'kindd',
      'budegt',
      'max_item',
      'sead',
      'strategy',
      'script',
      'gate',
      'x-y',
      '"quoted key"',
      '1',
      'transitions',
      'tool_routing',
    ),
  }),
);
export type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

export function mutate(source: string, m: Mutation): string {
  const at = source.length === 0 ? 0 : m.at % source.length;
  switch (m.op) {
    case 'truncate':
      return source.slice(0, at);
    case 'delete':
      return source.slice(0, at) + source.slice(at + m.len);
    case 'insert':
      return source.slice(0, at) + m.text + source.slice(at);
    case 'value': {
      // Replace the value after the n-th `=` with a value of the wrong type.
      const eqs = [...source.matchAll(/=\s*/g)];
      if (!eqs.length) return source;
      const eq = eqs[m.at % eqs.length]!;
      const start = eq.index! + eq[0].length;
      const end = source.slice(start).search(/[,}\n]/);
      return source.slice(0, start) + m.text + (end < 0 ? '' : source.slice(start + end));
    }
    case 'key': {
      const keys = [...source.matchAll(/(^|[{,]\s*)([A-Za-z_]+)(\s*=)/gm)];
      if (!keys.length) return source;
      const k = keys[m.at % keys.length]!;
      const start = k.index! + k[1]!.length;
      return source.slice(0, start) + m.text + source.slice(start + k[2]!.length);
    }
  }
}

/** More regions than a blueprint may declare, spread over the top level and a stage (names repeat across them). */
const regionFlood = fc
  .tuple(fc.integer({ min: MAX_REGIONS - 3, max: MAX_REGIONS + 40 }), fc.integer({ min: 0, max: 60 }))
  .map(([count, inStage]) => {
    const line = (i: number) => `r${i} = { kind = "temporary" }`;
    const top = Array.from({ length: count - inStage }, (_, i) => line(i));
    const stage = Array.from({ length: inStage }, (_, i) => line(count - inStage - 10 + i));
    return `[context.regions]\ntask = { kind = "pinned" }\n${top.join('\n')}\n[stages.s.context.regions]\n${stage.join('\n')}\n`;
  });

export const brokenBlueprintArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(validBlueprintArb, fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([src, ms]) => ms.reduce(mutate, src)),
  },
  { weight: 1, arbitrary: regionFlood },
  {
    weight: 1,
    arbitrary: fc
      .tuple(controlText, controlText)
      .map(
        ([stage, key]) =>
          `[context.regions]\ntask = {}\n[stages.${JSON.stringify(stage)}]\n${JSON.stringify(key)} = 1\n`,
      ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes).toString('latin1')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 400 }).map((bytes) => new TextDecoder().decode(bytes)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(...JUNK, 'context', 'regions', 'kind', 'stages', ' ', 'a'), { maxLength: 60 })
      .map((p) => p.join('')),
  },
);

// ---- traffic and scenarios --------------------------------------------------------------------

const CALL_IDS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
const text = fc.oneof(
  fc.constantFrom('', 'ok', 'Looking at the parser.', 'ERROR: test failed\nline two', 'done'),
  fc.lorem({ maxCount: 30 }),
  fc.string({ maxLength: 40 }),
  controlText,
);

/** Random events from every event type; region, stage, todo id and call references are sometimes wrong. */
export function trafficArb(spec: BlueprintSpec, maxEvents: number): fc.Arbitrary<TrafficEvent[]> {
  const region = fc.constantFrom(...spec.regions.map((r) => r.name), 'conversation', 'tool_results', 'nowhere', 'Task');
  const stage = fc.constantFrom(...spec.stages.map((s) => s.name), 'nowhere', 'analyze');
  const todoId = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: -3, max: 1_000 }));
  const callId = fc.constantFrom(...CALL_IDS);
  const event: fc.Arbitrary<TrafficEvent> = fc.oneof(
    { weight: 4, arbitrary: text.map((content): TrafficEvent => ({ type: 'user', content })) },
    {
      weight: 5,
      arbitrary: fc
        .record({
          content: text,
          calls: fc.array(
            fc.record({
              id: callId,
              name: fc.constantFrom(...TOOL_NAMES),
              path: fc.option(fc.constantFrom('README.md', 'src/lib.rs', 'missing.rs'), { nil: undefined }),
            }),
            { maxLength: 3 },
          ),
        })
        .map(({ content, calls }): TrafficEvent =>
          calls.length
            ? {
                type: 'assistant',
                content,
                tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.path ? { path: c.path } : {} })),
              }
            : { type: 'assistant', content },
        ),
    },
    {
      weight: 5,
      arbitrary: fc
        .record({
          id: callId,
          name: fc.constantFrom(...TOOL_NAMES),
          isError: fc.boolean(),
          body: fc.oneof(
            fc.integer({ min: 0, max: 3_000 }).map((n) => ({ size_tokens: n })),
            text.map((content) => ({ content })),
          ),
        })
        .map(({ id, name, isError, body }): TrafficEvent => ({
          type: 'tool_result',
          tool_call_id: id,
          tool_name: name,
          ...body,
          ...(isError ? { is_error: true } : {}),
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ region, key: fc.option(fc.constantFrom('a', 'b', 'rfc-9110'), { nil: undefined }), content: text })
        .map((e): TrafficEvent =>
          e.key === undefined
            ? { type: 'context_append', region: e.region, content: e.content }
            : { type: 'context_append', ...e, key: e.key },
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          region,
          which: fc.oneof(
            fc.constantFrom('a', 'b', 'missing').map((key) => ({ key })),
            fc.integer({ min: 0, max: 8 }).map((index) => ({ index })),
            fc.integer({ min: 1, max: 5 }).map((oldest) => ({ oldest })),
          ),
        })
        .map(({ region: r, which }): TrafficEvent => ({ type: 'context_delete', region: r, ...which })),
    },
    { weight: 1, arbitrary: region.map((r): TrafficEvent => ({ type: 'context_list', region: r })) },
    { weight: 2, arbitrary: fc.record({ region, item: text }).map((e): TrafficEvent => ({ type: 'todo_add', ...e })) },
    { weight: 2, arbitrary: fc.record({ region, id: todoId }).map((e): TrafficEvent => ({ type: 'todo_done', ...e })) },
    {
      weight: 1,
      arbitrary: fc.record({ region, id: todoId, note: text }).map((e): TrafficEvent => ({ type: 'todo_note', ...e })),
    },
    { weight: 1, arbitrary: stage.map((to): TrafficEvent => ({ type: 'transition', to })) },
  );
  return fc.array(event, { maxLength: maxEvents, size: 'max' });
}

const modelArb = fc.oneof(
  fc.constantFrom({ id: 'gpt-4o' }, { id: 'gpt-3.5-turbo' }, { id: 'claude-sonnet-4' }),
  // Small windows force the window-level cascade and pinned-over-budget cases.
  fc.record({
    window: fc.integer({ min: 500, max: 20_000 }),
    encoding: fc.constantFrom('o200k_base' as const, 'cl100k_base' as const),
  }),
);

export interface ScenarioCase {
  spec: BlueprintSpec;
  toml: string;
  scenario: Scenario;
}

export function scenarioArb(maxEvents: number): fc.Arbitrary<ScenarioCase> {
  return fc
    .tuple(blueprintSpecArb, fc.boolean(), modelArb, fc.boolean(), fc.oneof(fc.constant('fuzz'), controlText))
    .chain(([spec, sections, model, withTask, name]) =>
      trafficArb(spec, maxEvents).map((traffic) => {
        const toml = blueprintToml(spec, sections);
        const scenario = ScenarioSchema.parse({
          version: 1,
          name,
          model,
          agent: { 'agent.leviath': toml, ...SCRIPTS },
          workdir: WORKDIR,
          inputs: withTask
            ? { task: 'Fix the failing test in src/lib.rs.', caller: { brief: 'Keep it small.' }, notes: 'n' }
            : {},
          traffic,
        });
        return { spec, toml, scenario };
      }),
    );
}
