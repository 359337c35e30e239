// Share links made on a given day, with the timeline each opened to then. The test holds every
// committed file to its links, byte for byte: a page that can no longer open one, or opens it to
// different numbers, breaks links people have already pasted somewhere.
//   npx tsx test/share/link-fixtures.ts   writes test/share/fixtures/links-<today>.json if absent
import { existsSync, writeFileSync } from 'node:fs';
import { ScenarioSchema, type ScenarioInput, type Timeline, replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { encodeScenario } from '../../src/share/index.ts';

export interface LinkFixture {
  name: string;
  fragment: string;
  opensTo: TimelineFigures;
  /**
   * Deliberate engine fixes that changed what this link opens to, oldest first: the day, why, and
   * the figures it opened to before. The link itself is never rewritten.
   */
  engineChanges?: { on: string; why: string; was: TimelineFigures }[];
}

/** What "the same timeline" means: every step's region tokens and request figures, and the totals. */
export interface TimelineFigures {
  steps: number;
  inferences: number;
  finalStage: string;
  finalTokens: Record<string, number>;
  peakRequestTokens: number;
  /** FNV-1a over every step's region tokens, request tokens and prefix tokens. */
  stepsDigest: string;
}

export function timelineFigures(timeline: Timeline): TimelineFigures {
  const last = timeline.steps.at(-1);
  let hash = 0x811c9dc5;
  for (const step of timeline.steps) {
    const row = [
      ...Object.entries(step.regions).map(([name, r]) => `${name}=${r.tokens}`),
      step.request?.requestTokens ?? '',
      step.request?.prefixTokens ?? '',
    ].join(',');
    for (let i = 0; i < row.length; i++) hash = Math.imul(hash ^ row.charCodeAt(i), 0x01000193);
  }
  return {
    steps: timeline.steps.length,
    inferences: timeline.summary.inferences,
    finalStage: timeline.summary.finalStage,
    finalTokens: Object.fromEntries(Object.entries(last?.regions ?? {}).map(([name, r]) => [name, r.tokens])),
    peakRequestTokens: timeline.summary.peakRequestTokens,
    stepsDigest: (hash >>> 0).toString(16).padStart(8, '0'),
  };
}

/** Beyond the examples: explicit events with inline tool output, a custom window, Unicode. */
const HAND_MADE: ScenarioInput[] = [
  {
    version: 1,
    name: 'explicit-events',
    description: 'explicit traffic, inline tool output, a custom window',
    model: { window: 24_000, encoding: 'cl100k_base' },
    agent: {
      'agent.leviath':
        '[context.regions]\ntask = { kind = "pinned", budget = "10%", seed = "task_input" }\nconversation = { kind = "sliding_window", budget = "50%", max_items = 4 }\n',
    },
    inputs: { task: 'Résumé the logs — find the 🐛' },
    traffic: [
      { type: 'user', content: 'Where does the login test fail?' },
      {
        type: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'tests/login.rs' } }],
      },
      {
        type: 'tool_result',
        tool_call_id: 'c1',
        tool_name: 'read_file',
        content: 'fn login() {\n    assert_eq!(status, 200);\n}\n'.repeat(20),
      },
      { type: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'shell', arguments: { cmd: 'cargo test' } }] },
      { type: 'tool_result', tool_call_id: 'c2', tool_name: 'shell', size_tokens: 900, is_error: true },
      { type: 'assistant', content: 'The status is 401 because the token expired.' },
      { type: 'user', content: 'Fix it.' },
      { type: 'assistant', content: 'Done.' },
    ],
  },
];

export function fixturesOfToday(): LinkFixture[] {
  const scenarios = [...EXAMPLES.map((e) => e.scenario), ...HAND_MADE];
  return scenarios.map((input) => {
    const scenario = ScenarioSchema.parse(input);
    return {
      name: scenario.name,
      fragment: encodeScenario(scenario),
      opensTo: timelineFigures(replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI })),
    };
  });
}

if (process.argv[1]?.endsWith('link-fixtures.ts')) {
  const file = new URL(`./fixtures/links-${new Date().toISOString().slice(0, 10)}.json`, import.meta.url);
  if (existsSync(file)) {
    console.error(`${file.pathname} exists: links made that day are never rewritten.`);
    process.exit(1);
  }
  writeFileSync(file, `${JSON.stringify(fixturesOfToday(), null, 2)}\n`);
  console.log(`wrote ${file.pathname}`);
}
