// What each agent.leviath key and value means, with its default: the spec's own tables
// (structured-context.md "Keys every region accepts", "Per-kind keys", "Seeding a region",
// "Routing tool output"; custom-regions.md "Declaring one"), shown on hover and in completion.
// A region's keys and kinds are documented where the engine defines them (COMMON_KEY_DOCS, each
// kind's definition in src/engine/regions/<kind>.ts); the rest are here.
import { COMMON_KEY_DOCS, KINDS, REGION_KINDS, type KeyDoc } from '../../engine/page.ts';

export type { KeyDoc };

/** A region's keys: the common ones and every kind's own, from the kinds' definitions. */
export const REGION_KEY_DOCS: Readonly<Record<string, KeyDoc>> = {
  ...COMMON_KEY_DOCS,
  ...Object.fromEntries(REGION_KINDS.flatMap((kind) => Object.entries(KINDS[kind].keys))),
};

export const OTHER_KEY_DOCS: Record<string, KeyDoc> = {
  context: { meaning: "The context window's layout: [context.regions] and [context.file_tracking]." },
  regions: { meaning: 'The named regions of the window, in declaration order (pinned ones first in the request).' },
  stages: {
    meaning: "The agent's stages: each with a system_prompt, an optional own layout, transitions and tool routing.",
  },
  system_prompt: {
    meaning: "The stage's instructions, pinned context written into stage_instructions (or the first pinned region).",
  },
  transitions: {
    meaning:
      'Edges to other stages, keyed by target stage: [stages.<from>.transitions.<to>], each with an optional gate and transform.',
  },
  tool_routing: {
    meaning: 'Where tool output lands in this stage: default_region, overrides per tool, and result caps.',
  },
  max_attempts: { meaning: 'How many times a gate may send the stage back before the run moves on anyway.' },
  gate: { meaning: 'A condition the transition waits for, e.g. { require_no_open_items = "todos", message = "..." }.' },
  transform: { meaning: 'What happens to context across the edge; "compact" paraphrases summarizable regions.' },
  require_no_open_items: { meaning: 'Gate: the checklist region that must have no open items before the transition.' },
  message: { meaning: 'Gate: what the model is told while the gate holds.' },
  default_region: {
    meaning: 'Routing: the region tool results land in when no override names the tool.',
    default: '"tool_results"',
  },
  max_result_tokens: {
    meaning: 'Routing: a ceiling for any tool result without one of its own; longer results are truncated.',
  },
  overrides: { meaning: 'Routing per tool: tool = "region", or tool = { region = "...", max_result_tokens = N }.' },
  max_result_tokens_per_tool: { meaning: 'Routing: a result ceiling per tool name.' },
  region: { meaning: 'The region this names.' },
  file_tracking: { meaning: 'Track files the agent read in a hashmap region.' },
  enabled: { meaning: 'Turns this feature on.', default: 'false' },
  safe_commands: { meaning: 'Commands that run without asking (command seeds must be covered here).' },
  read_paths: { meaning: 'Paths outside the working directory the agent may read (and seeds may name).' },
  security: { meaning: 'Machine-wide switches, e.g. allow_seed_commands.' },
  allow_seed_commands: { meaning: 'false refuses every command seed.', default: 'true' },
  files: { meaning: 'Seed: the contents of these files, relative to the working directory.' },
  glob: { meaning: 'Seed: every file matching the pattern.' },
  literal: { meaning: 'Seed: fixed text.' },
  command: { meaning: 'Seed: the stdout of a shell command (must be covered by [safe_commands]).' },
  rhai: { meaning: 'Seed: the return value of a Rhai script in the agent directory.' },
  caller: { meaning: 'Seed: a named value passed by a parent agent.' },
};

/** The values of a key, each with its meaning: a region's kinds (and their aliases), and every key whose doc lists its values. */
export const VALUE_DOCS: Record<string, Record<string, string>> = {
  kind: Object.fromEntries(
    REGION_KINDS.flatMap((kind) => [[kind, KINDS[kind].doc], ...Object.entries(KINDS[kind].aliases ?? {})]),
  ),
  ...Object.fromEntries(
    Object.entries(REGION_KEY_DOCS).flatMap(([key, doc]) => (doc.values ? [[key, doc.values]] : [])),
  ),
  transform: {
    compact: 'Paraphrase every summarizable region across the edge.',
  },
  seed: {
    task_input: "The caller's task: the scenario's inputs.task.",
    input: 'A caller key named after this region.',
  },
};

export function keyDoc(key: string): KeyDoc | undefined {
  return REGION_KEY_DOCS[key] ?? OTHER_KEY_DOCS[key];
}
