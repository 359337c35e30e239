// Names that are members of Object.prototype (and Function.prototype: `call`, `name`, ...) used as
// every kind of name a user gives: stage, region, tool, routing key, entry key, ledger row,
// workdir path, command, caller input. Replay and validate must give the same results as for any
// other name, and must not change Object.prototype for the rest of the process.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileBlueprint } from '../../src/engine/blueprint/index.ts';
import { checkCustomScript } from '../../src/engine/custom-script.ts';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { ScenarioSchema, type Scenario } from '../../src/engine/scenario.ts';
import { runs, SEED, tried } from '../fuzz/harness.ts';

const MEMBER_NAMES = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    'then',
    'prototype',
  ]),
];
/** smol-toml refuses these two as keys (test/hostile/reserved-keys.test.ts has the message). */
const TOML_RESERVED = new Set(['__proto__', 'constructor']);
const tomlKeyNames = MEMBER_NAMES.filter((n) => !TOML_RESERVED.has(n));
/** zod cannot keep `__proto__` as an object key; the scenario refuses it (tested below). */
const jsonKeyNames = MEMBER_NAMES.filter((n) => n !== '__proto__');

interface Names {
  stage: string;
  region: string;
  tool: string;
  key: string;
  path: string;
  command: string;
  input: string;
}

function scenarioFor(n: Names): Scenario {
  const q = JSON.stringify;
  const toml = [
    '[context.regions]',
    'task = { kind = "pinned", seed = "task_input" }',
    `${q(n.region)} = { kind = "hashmap", max_tokens = 5000 }`,
    `from_file = { kind = "pinned", seed = { files = [${q(n.path)}] } }`,
    `from_command = { kind = "pinned", seed = { command = ${q(n.command)} } }`,
    `from_caller = { kind = "pinned", seed = { caller = ${q(n.input)} } }`,
    '[safe_commands]',
    `allow = [${q(n.command)}]`,
    `[stages.${q(n.stage)}.tool_routing.overrides]`,
    `${q(n.tool)} = ${q(n.region)}`,
  ].join('\n');
  return ScenarioSchema.parse({
    version: 1,
    model: { id: 'gpt-4o' },
    agent: { 'agent.leviath': toml },
    workdir: { [n.path]: 'file body' },
    commands: { [n.command]: 'command output' },
    inputs: { task: 'the task', caller: { [n.input]: 'from the parent' } },
    traffic: [
      { type: 'user', content: 'hi' },
      {
        type: 'assistant',
        content: 'calling',
        tool_calls: [{ id: n.key, name: n.tool, arguments: { [n.key]: n.path } }],
      },
      { type: 'tool_result', tool_call_id: n.key, tool_name: n.tool, content: 'the result' },
      { type: 'context_append', region: n.region, key: n.key, content: 'first' },
      { type: 'context_append', region: n.region, key: n.key, content: 'second, replacing the first' },
      { type: 'assistant', content: 'done' },
    ],
  });
}

function check(n: Names): void {
  const scenario = scenarioFor(n);
  const { diagnostics } = compileBlueprint(scenario.agent, {
    workdir: scenario.workdir,
    commands: scenario.commands,
    checkScript: checkCustomScript,
  });
  expect(
    diagnostics.filter((d) => d.severity !== 'info'),
    'validate',
  ).toEqual([]);

  const timeline = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  expect(
    timeline.diagnostics.filter((d) => d.severity !== 'info'),
    'replay',
  ).toEqual([]);
  const last = timeline.steps.at(-1)!;
  expect(last.stage).toBe(n.stage);
  // The tool result was routed to the region by the override, and the second keyed write replaced the first.
  expect(Object.hasOwn(last.regions, n.region)).toBe(true);
  expect(last.regions[n.region]!.entries).toBe(2);
  for (const region of ['from_file', 'from_command', 'from_caller'])
    expect(last.regions[region]!.entries, region).toBe(1);
  const routed = timeline.steps[2]!.result;
  expect(routed?.ok && routed.message).toMatch(new RegExp(`to ${n.region.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}\\b`));
  // The ledger row is a number of tokens, not a string built on an inherited function.
  const charged = timeline.summary.ledger[n.stage]?.[n.region];
  expect(Object.hasOwn(timeline.summary.ledger, n.stage)).toBe(true);
  expect(typeof charged).toBe('number');
  expect(charged).toBeGreaterThan(0);
  expect(JSON.stringify(timeline)).not.toContain('[native code]');
  // Nothing leaked into the shared prototypes.
  expect(Object.prototype.toString.call([])).toBe('[object Array]');
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_MEMBERS);
}

const PROTOTYPE_MEMBERS = Object.getOwnPropertyNames(Object.prototype).sort();

describe('Object.prototype member names', () => {
  it.each(tomlKeyNames)('%s as every name at once', (name) => {
    check({ stage: name, region: name, tool: name, key: name, path: name, command: name, input: name });
  });

  it('each role drawn independently (a stage `hasOwnProperty` with a region `name`, ...)', () => {
    const names = fc
      .record({
        stage: fc.constantFrom(...tomlKeyNames),
        region: fc.constantFrom(...tomlKeyNames),
        tool: fc.constantFrom(...tomlKeyNames),
        key: fc.constantFrom(...MEMBER_NAMES),
        path: fc.constantFrom(...jsonKeyNames),
        command: fc.constantFrom(...jsonKeyNames),
        input: fc.constantFrom(...jsonKeyNames),
      })
      .filter((n) => !['task', 'from_file', 'from_command', 'from_caller'].includes(n.region));
    fc.assert(
      fc.property(names, (n) => tried('prototype names', () => check(n))),
      { numRuns: runs(150), seed: SEED },
    );
  });

  it('the case from the issue: stage hasOwnProperty, region name (it threw "Cannot assign to read only property")', () => {
    check({
      stage: 'hasOwnProperty',
      region: 'name',
      tool: 'read_file',
      key: 'c1',
      path: 'a.rs',
      command: 'ls',
      input: 'x',
    });
    check({ stage: 'toString', region: 'call', tool: 'read_file', key: 'c1', path: 'a.rs', command: 'ls', input: 'x' });
  });

  it('constructor works as a workdir path, command and caller input (JSON keys)', () => {
    check({
      stage: 's',
      region: 'notes',
      tool: 'grep',
      key: 'constructor',
      path: 'constructor',
      command: 'constructor',
      input: 'constructor',
    });
  });

  it.each([['workdir'], ['commands'], ['agent'], ['inputs'], ['inputs', 'caller']])(
    '"__proto__" as a key of %j is refused by name, not silently dropped',
    (...path) => {
      const raw: Record<string, unknown> = { version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '' } };
      const table = JSON.parse('{"__proto__": "x"}') as Record<string, unknown>;
      if (path.length === 1)
        raw[path[0]!] = path[0] === 'agent' ? JSON.parse('{"agent.leviath": "", "__proto__": "x"}') : table;
      else raw.inputs = { caller: table };
      const parsed = ScenarioSchema.safeParse(raw);
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues.map((i) => [i.path, i.message])).toEqual([
        [
          [...path, '__proto__'],
          '"__proto__" is reserved here (JavaScript gives that key a special meaning, so it would be lost); rename it',
        ],
      ]);
    },
  );
});
