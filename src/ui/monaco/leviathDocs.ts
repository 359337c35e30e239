// What each agent.leviath key and value means, with its default: the spec's own tables
// (structured-context.md "Keys every region accepts", "Per-kind keys", "Seeding a region",
// "Routing tool output"; custom-regions.md "Declaring one"), shown on hover and in completion.

export interface KeyDoc {
  meaning: string;
  default?: string;
}

export const REGION_KEY_DOCS: Record<string, KeyDoc> = {
  kind: {
    meaning:
      'How the region behaves when it fills: pinned, sliding_window, compacting, compact_history, clearable, hashmap, checklist, temporary or custom. An unknown kind is a hard error.',
    default: '"temporary"',
  },
  budget: {
    meaning:
      'A share of the model\'s context window, written as "35%". It resolves against the model in front of it, so the blueprint keeps its shape across models.',
    default: 'unset',
  },
  max_tokens: {
    meaning:
      'A token ceiling. On its own a plain ceiling; alongside budget it caps the resolved percentage, so the region gets whichever is smaller.',
    default: '5000',
  },
  min_tokens: {
    meaning: 'A floor for a percentage budget, so the region stays usable on a small model.',
    default: 'unset',
  },
  seed: {
    meaning:
      'What the region starts with, before the first inference: "task_input", "input", a caller key, or { files | glob | literal | command | rhai | caller = ... }.',
    default: 'unset',
  },
  required: { meaning: 'The stage re-runs rather than moving on while this region is empty.', default: 'false' },
  summarizable: {
    meaning: 'Set false to keep an edge transform = "compact" from paraphrasing this region.',
    default: 'true',
  },
  admission: {
    meaning:
      'What happens when a write does not fit: "evict" drops older content; "reject" refuses the write and tells the agent to release something first.',
    default: '"evict"',
  },
  required_message: {
    meaning: 'What the model is told when a required region is empty. Supports {region}.',
    default: 'generated',
  },
  max_items: { meaning: 'sliding_window: how many entries the window keeps.', default: '10' },
  strategy: {
    meaning:
      'sliding_window: how it makes room — per_item drops the oldest one at a time, bulk drops `overflow` at once, compact folds `compact_count` into a summary.',
    default: '"per_item"',
  },
  overflow: { meaning: 'sliding_window with strategy = "bulk": how many entries to drop at once.' },
  compact_count: { meaning: 'sliding_window with strategy = "compact": how many entries to fold into a summary.' },
  compact_at: {
    meaning:
      'compacting / compact_history: compact once the region is this full, a share of its resolved budget ("80%" of a 40,000-token budget is 32,000).',
    default: 'the budget',
  },
  threshold_tokens: { meaning: 'compacting / compact_history: a hard token ceiling, applied as well as compact_at.' },
  source_region: { meaning: "compact_history: which region's summaries roll forward into this one." },
  max_entries: { meaning: 'hashmap: the most keys it holds; a write to an existing key replaces it.' },
  script: {
    meaning:
      'custom: the Rhai script with render (required), on_write and on_overflow, relative to the agent directory.',
  },
  persistent: { meaning: 'custom: true behaves pinned-like (never evicted, cache hint "always").', default: 'false' },
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

export const VALUE_DOCS: Record<string, Record<string, string>> = {
  kind: {
    temporary: 'The default when kind is omitted; recent entries, trimmed first under budget pressure.',
    pinned: 'Never evicted (architecture, the task).',
    sliding_window: 'Keeps the most recent entries; the conversation lives here.',
    compacting: 'Summarizes instead of evicting: file reads and tool results.',
    compact_history:
      'Carries summaries from earlier stages forward, so a later stage skips the raw content. source_region names what it summarizes.',
    clearable: 'Wiped in one shot when space is needed (scratch).',
    hashmap: 'Keyed entries (alias hash_map); a write to a key replaces it.',
    hash_map: 'An alias of hashmap.',
    checklist:
      'A task list whose entries carry state, written through todo_add / todo_done / todo_note; never evicted, rendered open-items-first.',
    custom: 'Behaviour defined by a Rhai script (script = "...").',
  },
  strategy: {
    per_item: 'Drop the oldest entry, one at a time (the default).',
    bulk: 'Drop `overflow` entries at once.',
    compact: 'Fold `compact_count` entries into a summary.',
  },
  admission: {
    evict: 'A write that does not fit drops older content (the default).',
    reject:
      'A write that does not fit is refused and the agent is told to release something first; the region is also exempt from the window cascade.',
  },
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
