// The built-in examples: each demonstrates one idea of the spec, with a blueprint that follows the
// spec exactly and a generator spec (not events), so every example's share link stays short. The
// one exception, imported-run, is a real session's events (brought in with lev import).
import type { ScenarioInput, TrafficEvent } from '../engine/page.ts';
import { IMPORTED_RUN_TASK, IMPORTED_RUN_TRAFFIC } from './imported-run.ts';
import type { Lesson } from './lessons.ts';

export interface Example {
  id: string;
  title: string;
  /** One paragraph: what to watch. */
  summary: string;
  /** Where it opens and what to look at there (lessons.ts). */
  lesson: Lesson;
  scenario: ScenarioInput;
}

/** The spec's brain region, verbatim from the custom-regions page. */
const BRAIN_RHAI =
  [
    '// context_hooks/brain.rhai',
    '',
    'fn render(ctx) {',
    '    let xml = "<context>";',
    '    for entry in ctx.entries {',
    '        xml += `<event kind="${entry.kind}">${entry.content}</event>`;',
    '    }',
    '    xml += "</context>";',
    '    #{ messages: [ #{ role: "user", content: xml } ] }',
    '}',
    '',
    'fn on_write(ctx) {',
    '    // Keep tool errors verbatim; trim chatty successes to their first line.',
    '    let entry = ctx.entry;',
    '    if entry.kind == "tool_result" && !entry.content.contains("ERROR") {',
    '        let head = entry.content.split("\\n")[0];',
    '        return head;                 // replace content (kind preserved)',
    '    }',
    '    ()                               // accept everything else unchanged',
    '}',
    '',
    'fn on_overflow(ctx) {',
    '    // Drop successes first; oldest-first eviction covers any shortfall.',
    '    let drops = [];',
    '    for (entry, i) in ctx.entries {',
    '        if !entry.content.contains("ERROR") { drops.push(i); }',
    '    }',
    '    drops',
    '}',
  ].join('\n') + '\n';

const CODING_AGENT_LAYOUT = `# The spec's coding-agent layout: a pinned task, a compacting codebase, a sliding
# conversation, and a history that carries codebase summaries into later stages.
[context.regions]
task = { kind = "pinned", budget = "12%", seed = "task_input" }
codebase = { kind = "compacting", budget = "20%" }
conversation = { kind = "sliding_window", budget = "33%", max_items = 20 }
history = { kind = "compact_history", budget = "15%", source_region = "codebase" }

[stages.analyze]
system_prompt = "Read the code the task touches. Do not edit anything yet."

[stages.analyze.tool_routing.overrides]
read_file = "codebase"

[stages.analyze.transitions.implement]

[stages.implement]
system_prompt = "Make the change in small steps and run the tests after each."

[stages.implement.tool_routing.overrides]
read_file = "codebase"
`;

const FLAT_VS_REGIONS = `# One long chat on a small window. The comparison panel replays the same traffic
# through one flat list, oldest out first: the task is the first thing it drops.
# Here the task is pinned, so it is in every request to the end.
[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
conversation = { kind = "sliding_window", budget = "75%", max_items = 40 }
`;

const CHECKLIST_GATE = `# A checklist the agent writes through todo_add / todo_done / todo_note, and a gate
# that refuses to leave the analyze stage while any item is still open.
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
todos = { kind = "checklist", budget = "3%" }
codebase = { kind = "compacting", budget = "25%" }
conversation = { kind = "sliding_window", budget = "35%", max_items = 20 }

[stages.analyze]
system_prompt = "Read the code the task touches and list each change it needs as a todo."
max_attempts = 3

[stages.analyze.tool_routing.overrides]
read_file = "codebase"

[stages.analyze.transitions.implement]
gate = { require_no_open_items = "todos", message = "Finish or explicitly drop the open items first." }

[stages.implement]
system_prompt = "Work through the todos one at a time and run the tests after each."

[stages.implement.tool_routing.overrides]
read_file = "codebase"
`;

const STAGE_INSTRUCTIONS = `# stage_instructions gives each stage's prompt a pinned block assembled after every
# other pinned block, so the prefix in front of it (over the 1,024-token minimum for a
# cache read) stays the same when the stage changes. Delete that line and replay.
[context.regions]
stage_instructions = { kind = "pinned", budget = "3%" }
task = { kind = "pinned", budget = "5%", seed = "task_input" }
readme = { kind = "pinned", budget = "5%", seed = { files = ["README.md"] } }
corpus = { kind = "pinned", budget = "3%", seed = { files = ["tests/corpus/health-checks.http"] } }
recent_commits = { kind = "pinned", budget = "3%", seed = { command = "git log --oneline -20" } }
codebase = { kind = "compacting", budget = "25%" }
conversation = { kind = "sliding_window", budget = "33%", max_items = 20 }

[safe_commands]
allow = ["git log"]

[stages.analyze]
system_prompt = "Analyze: trace how a header line moves from the socket to the parser and note every place that assumes a non-empty line. Edit nothing yet."

[stages.analyze.tool_routing.overrides]
read_file = "codebase"

[stages.analyze.transitions.implement]

[stages.implement]
system_prompt = "Implement: make the smallest change that lets empty continuation lines through, add a test that fails without it, and run the tests after each edit."

[stages.implement.tool_routing.overrides]
read_file = "codebase"
`;

const SLIDING_BULK = `# A sliding conversation that drops its oldest turns twenty at a time. Dropping one
# turn per message (per_item) changes the head of the messages on every inference,
# so nothing behind it is a cache hit; dropping in chunks keeps the prefix most of the time.
[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
conversation = { kind = "sliding_window", budget = "60%", max_items = 40, strategy = "bulk", overflow = 20 }
`;

const RESEARCH_REJECT = `# The agent curates its sources: a full region refuses new fetches instead of silently
# dropping one, so the agent must release a spent source (context_delete) first.
# Findings go to a hashmap: writing an existing key replaces it.
[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
findings = { kind = "hashmap", budget = "15%", max_entries = 50 }
sources = { kind = "temporary", budget = "30%", admission = "reject" }
conversation = { kind = "sliding_window", budget = "30%", max_items = 20 }

[stages.gather]
system_prompt = "Fetch sources, write what matters to findings under a topic key, then release the source."

[stages.gather.tool_routing.overrides]
fetch = "sources"
`;

const TOOL_ROUTING = `# Tool output is routed by tool name: file reads land in a compacting codebase region
# with a ceiling of their own, greps in scratch, everything else under a lower cap.
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
codebase = { kind = "compacting", budget = "30%", compact_at = "80%" }
scratch = { kind = "clearable", budget = "10%" }
conversation = { kind = "sliding_window", budget = "30%", max_items = 20 }

[stages.analyze]
system_prompt = "Explore the code the task touches and explain what you find."

[stages.analyze.tool_routing]
default_region = "scratch"
max_result_tokens = 4000 # ceiling for any tool without one of its own

[stages.analyze.tool_routing.overrides]
read_file = { region = "codebase", max_result_tokens = 20000 }
grep = "scratch"

[stages.analyze.tool_routing.max_result_tokens_per_tool]
bash = 1500 # an alias: covers the shell tool the model calls
`;

const BRAIN = `# A custom region: context_hooks/brain.rhai decides what is stored (on_write trims
# successful tool results to their first line), what is dropped under pressure
# (on_overflow drops successes before errors) and how it renders (one XML message).
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }

[context.regions.brain]
kind = "custom"
script = "context_hooks/brain.rhai"
persistent = false
budget = "40%"
min_tokens = 10000

[stages.work]
system_prompt = "Fix the failing test. Every tool result goes to the brain region."

[stages.work.tool_routing]
default_region = "brain"
`;

/** One of a load balancer's health checks: the corpus repeats it as the balancer does. */
const HEALTH_CHECK = `GET /healthz HTTP/1.1
Host: headerline.internal:8080
User-Agent: ELB-HealthChecker/2.0
Accept: */*
Accept-Encoding: gzip, deflate
Connection: keep-alive
X-Request-Start: t=1733472000
`;

/** tests/corpus/health-checks.http: sixteen checks over one keep-alive connection (a pinned seed of stage-instructions-cache). */
const HEALTH_CHECKS = `# A load balancer's health checks over one keep-alive connection.\n${Array(16).fill(HEALTH_CHECK).join('\n')}`;

const README = `# headerline

A small HTTP/1.1 header parser in Rust.

- \`src/parser/\` reads header lines from a buffered stream.
- \`src/engine/\` applies limits (line length, header count).
- \`tests/\` holds the integration tests; run them with \`cargo test\`.

Known issue: an empty continuation line is rejected as malformed.
`;

const GIT_LOG = `9f2c1d4 parser: reject header lines over max_len
41be0a7 engine: count headers per request
c03e9f1 tests: cover folded header lines
7d5a2b8 cli: add --max-headers
e8813c6 parser: keep the raw line for error messages
0b7f4aa storage: flush the buffer on close
5c6e2d1 net: retry reads on EINTR
a1f09b3 first commit
`;

const CODING_TASK =
  'Fix the failing test in src/parser/header.rs: parse_header rejects an empty continuation line. Keep the public API unchanged.';

const IMPORTED_RUN = `# A Claude Code session, imported with lev import, replayed through a layout of its own:
# file reads land in a small compacting codebase region, file_tracking keeps one line per file
# touched, and the conversation slides at six items.
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
files = { kind = "hashmap", budget = "5%" }
codebase = { kind = "compacting", budget = "4%", compact_at = "50%" }
conversation = { kind = "sliding_window", budget = "40%", max_items = 6 }

[context.file_tracking]
region = "files"

[stages.work]
system_prompt = "Fix the task in small steps and run the tests after each."

[stages.work.tool_routing.overrides]
read_file = "codebase"
`;

const THREE_STAGES = `# Three stages. compact_history carries a summary of what the codebase held into each
# later stage; verify has a layout of its own: no codebase, a clearable test log.
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
codebase = { kind = "compacting", budget = "20%" }
history = { kind = "compact_history", budget = "15%", source_region = "codebase" }
conversation = { kind = "sliding_window", budget = "30%", max_items = 20 }

[stages.analyze]
system_prompt = "Read the code the task touches. Edit nothing yet."

[stages.analyze.tool_routing.overrides]
read_file = "codebase"

[stages.analyze.transitions.implement]

[stages.implement]
system_prompt = "Make the change in small steps."

[stages.implement.tool_routing.overrides]
read_file = "codebase"

[stages.implement.transitions.verify]

[stages.verify]
system_prompt = "Run the whole test suite and report what fails."

[stages.verify.context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
history = { kind = "compact_history", budget = "15%", source_region = "codebase" }
test_log = { kind = "clearable", budget = "10%" }
conversation = { kind = "sliding_window", budget = "30%", max_items = 20 }

[stages.verify.tool_routing.overrides]
shell = "test_log"
`;

const CASCADE = `# Budgets that add up to more than the window (5 + 10 + 10 + 60 + 45 + 5 = 135% of
# 32,000 tokens): each region keeps to its own budget, but together they can overflow the
# window. When a request would, the window-level cascade sheds by kind, what loses least
# first: temporary, then clearable, then compacting and compact_history (folded into a
# summary), then sliding_window, then hashmap; pinned regions are never shed.
[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
notes = { kind = "temporary", budget = "10%" }
scratch = { kind = "clearable", budget = "10%" }
codebase = { kind = "compacting", budget = "60%" }
conversation = { kind = "sliding_window", budget = "45%", max_items = 400 }
files = { kind = "hashmap", budget = "5%" }

[context.file_tracking]
region = "files"

[stages.work]
system_prompt = "Fix the failing test in small steps."

[stages.work.tool_routing.overrides]
read_file = "codebase"
grep = "scratch"
fetch = "notes"
`;

/** One tool call and its result of `tokens` tokens (the cascade example's events after its chat). */
function toolCall(
  id: string,
  name: string,
  args: Record<string, unknown>,
  tokens: number,
  say: string,
): TrafficEvent[] {
  return [
    { type: 'assistant', content: say, tool_calls: [{ id, name, arguments: args }] },
    { type: 'tool_result', tool_call_id: id, tool_name: name, size_tokens: tokens },
  ];
}

export const EXAMPLES: Example[] = [
  {
    id: 'coding-agent',
    title: "The spec's coding-agent layout",
    summary:
      'Four regions sized as the spec sizes them: a pinned task (12%), a compacting codebase (20%) where every file read lands, a sliding conversation (33%, 20 items) and a compact_history (15%) fed from the codebase. Watch the codebase line climb to its budget and drop as older reads are summarized rather than lost, the conversation hold at twenty items, and the task stay flat from the first step to the last. After the transition to implement, the history region carries the codebase summaries forward.',
    lesson: {
      view: 'window',
      at: { event: 'change', type: 'compact', region: 'codebase' },
      region: 'codebase',
      look: 'The codebase region has just reached its 20% budget and folded its oldest file reads into one summary, so its band drops while the pinned task stays flat at the bottom; play on to watch it fill and fold again.',
    },
    scenario: {
      version: 1,
      name: 'coding-agent',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': CODING_AGENT_LAYOUT },
      inputs: { task: CODING_TASK },
      generator: { kind: 'coding-agent', seed: 7, steps: 400, params: { todos: null } },
    },
  },
  {
    id: 'flat-vs-regions',
    title: 'Flat list vs regions',
    summary:
      'A long chat on a 32,000-token window. In the comparison panel, the flat list drops its oldest message first, so partway through the chat the task leaves the window and every later request is answered without it; the marker shows the step. The blueprint keeps the task in a pinned region, so it is still the first block of the last request, while the conversation slides at forty items.',
    lesson: {
      view: 'flat',
      at: { event: 'task-lost' },
      region: 'task',
      look: 'At the marked step the flat list, full to the window, drops its oldest message, the task, and answers every later request without it; the blueprint keeps the task pinned in a far smaller request.',
    },
    scenario: {
      version: 1,
      name: 'flat-vs-regions',
      model: { window: 32000 },
      agent: { 'agent.leviath': FLAT_VS_REGIONS },
      inputs: {
        task: 'Plan a three-day offsite for twelve people under a budget of 6,000 euros; every plan must list the venue, the travel and the total cost.',
      },
      generator: { kind: 'long-chat', seed: 3, steps: 500 },
    },
  },
  {
    id: 'checklist-gate',
    title: 'Checklist and gate',
    summary:
      "The agent keeps its plan in a checklist region through todo_add, todo_done and todo_note, and the checklist renders open items first. The transition to implement is gated on require_no_open_items: watch the first attempt refused with a nudge that names the items still open, then the items ticked off and the second attempt pass. Both attempts count against the stage's max_attempts of 3, so the gate cannot wedge the run.",
    lesson: {
      view: 'window',
      at: { step: 107 },
      region: 'todos',
      look: 'The first attempt to leave analyze is refused here because four todos are still open (the step summary names them); a few steps later they are done and the second attempt passes.',
    },
    scenario: {
      version: 1,
      name: 'checklist-gate',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': CHECKLIST_GATE },
      inputs: { task: CODING_TASK },
      generator: { kind: 'coding-agent', seed: 11, steps: 300 },
    },
  },
  {
    id: 'stage-instructions-cache',
    title: 'stage_instructions and the prompt cache',
    summary:
      "Two stages with their own system prompts, and a declared stage_instructions region. The task, the README and a corpus of health-check requests (files seeds) and the recent commits (a command seed covered by [safe_commands]) are pinned in front of the instructions: 1,247 tokens, over the 1,024-token minimum for a cache read. So at the first inference after the transition the cache-prefix line still holds them and they are read at a tenth of the price; only the instructions and what follows them change. Delete the stage_instructions line and replay: the prompt is written into the first pinned region (task) instead, the prefix at the transition drops to zero, that request costs $0.158 instead of $0.153, and the stage ledger charges the prompt's tokens to task.",
    lesson: {
      view: 'cache',
      at: { event: 'stage', to: 'implement', inference: true },
      region: 'stage_instructions',
      look: 'The first request after the move to implement still reads the 1,247 pinned tokens in front of stage_instructions from the cache ($0.153 for this request, on the card), since only the instructions behind them changed; delete that line in the blueprint and replay to see this prefix drop to zero and the cost rise to $0.158',
    },
    scenario: {
      version: 1,
      name: 'stage-instructions-cache',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': STAGE_INSTRUCTIONS },
      workdir: { 'README.md': README, 'tests/corpus/health-checks.http': HEALTH_CHECKS },
      commands: { 'git log --oneline -20': GIT_LOG },
      inputs: { task: CODING_TASK },
      generator: { kind: 'coding-agent', seed: 5, steps: 200, params: { todos: null } },
    },
  },
  {
    id: 'sliding-bulk-cache',
    title: 'Sliding windows that evict in chunks',
    summary:
      'The conversation keeps forty items and, with strategy = "bulk" and overflow = 20, drops the oldest twenty at once when it is full. Watch the cache-prefix line: it stays high and dips only at each bulk drop, because between drops every request starts with the previous one. Change the strategy to "per_item" and replay: one turn leaves with every message, the head of the messages changes on every inference, and the prefix share collapses. strategy = "compact" with compact_count = 20 folds the twenty into a summary instead of dropping them.',
    lesson: {
      view: 'cache',
      at: { event: 'change', type: 'evict', region: 'conversation' },
      region: 'conversation',
      look: 'The cache-prefix line runs along the top of the request and dips only where twenty turns leave at once, as here; set strategy = "per_item" and replay to see it collapse.',
    },
    scenario: {
      version: 1,
      name: 'sliding-bulk-cache',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': SLIDING_BULK },
      inputs: {
        task: 'Help me write the migration guide from v1 to v2 of our HTTP client; every section must include a before/after code sample.',
      },
      generator: { kind: 'long-chat', seed: 8, steps: 500 },
    },
  },
  {
    id: 'research-reject',
    title: 'admission = "reject" with context_delete',
    summary:
      'A research agent fetches large sources into a curated region set to admission = "reject". When a fetch does not fit, it is refused with a message naming the region and how full it is, and nothing already there is lost; the agent releases spent sources with context_delete by key, by index and by oldest, and the tokens come back at once. Findings land in a hashmap keyed by topic, so a second write to a topic replaces the first.',
    lesson: {
      view: 'window',
      at: { event: 'change', type: 'reject', region: 'sources' },
      region: 'sources',
      look: 'This fetch is refused because sources is full: nothing already there is lost, the refusal says how full it is, and the agent frees room with context_delete before it fetches again.',
    },
    scenario: {
      version: 1,
      name: 'research-reject',
      model: { id: 'gpt-4o' },
      agent: { 'agent.leviath': RESEARCH_REJECT },
      inputs: {
        task: 'Find out how the major LLM providers price prompt caching, and when a cached prefix is invalidated.',
      },
      generator: { kind: 'research-agent', seed: 2, steps: 300 },
    },
  },
  {
    id: 'tool-routing',
    title: 'Tool routing with overrides and per-tool caps',
    summary:
      'File reads go to a compacting codebase region with their own 20,000-token ceiling, greps go to a clearable scratch region, and every other tool falls to scratch under a 4,000-token default cap; shell is capped at 1,500 through its alias bash. Watch large reads arrive truncated with a notice instead of being dropped, the message stream keep a short stub for each routed result, and scratch wipe in one shot when it fills.',
    lesson: {
      view: 'window',
      at: { event: 'change', type: 'clear', region: 'scratch' },
      region: 'scratch',
      look: 'Greps and unlisted tools fill the clearable scratch region, which wipes in one shot here when it is full, while file reads go to codebase under their own 20,000-token cap (the truncate markers).',
    },
    scenario: {
      version: 1,
      name: 'tool-routing',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': TOOL_ROUTING },
      inputs: { task: CODING_TASK },
      generator: {
        kind: 'coding-agent',
        seed: 4,
        steps: 250,
        params: { todos: null, transitionTo: null, fileSizes: { small: 3, medium: 3, large: 4 } },
      },
    },
  },
  {
    id: 'brain-custom',
    title: 'A custom region: the brain',
    summary:
      "Every tool result goes to a custom region run by the spec's brain.rhai. on_write keeps errors verbatim and trims successful results to their first line, so the region grows slowly; render emits the whole region as one XML user message; under budget pressure on_overflow drops successes before errors. Open context_hooks/brain.rhai beside the blueprint, change a hook, and replay.",
    lesson: {
      view: 'regions',
      at: { event: 'last' },
      region: 'brain',
      look: "The brain region grows slowly because on_write keeps only each successful result's first line and errors whole: open its entries in the inspector to read what the hook kept.",
    },
    scenario: {
      version: 1,
      name: 'brain-custom',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': BRAIN, 'context_hooks/brain.rhai': BRAIN_RHAI },
      inputs: { task: CODING_TASK },
      generator: {
        kind: 'coding-agent',
        seed: 6,
        steps: 150,
        params: { todos: null, transitionTo: null, inlineResults: true, fileSizes: { small: 6, medium: 3, large: 1 } },
      },
    },
  },
  {
    id: 'three-stage-history',
    title: 'compact_history across three stages, and a stage with its own layout',
    summary:
      "Three stages: analyze and implement read files into a compacting codebase region, and verify runs the tests. At each transition the compact_history region carries a summary of what is new in the codebase, so by verify it holds one carry per earlier stage. The verify stage declares its own [stages.verify.context.regions]: it leaves the codebase out (hidden, not deleted) and adds a clearable test_log where shell output lands, so its first request is about 15,000 tokens where implement's last was over 55,000. Try adding codebase to verify's layout and replay to see the request grow back.",
    lesson: {
      view: 'window',
      at: { event: 'stage', to: 'verify', inference: true },
      region: 'history',
      look: 'The first request in verify, whose own layout leaves the codebase out: the window drops to about 15,000 tokens while history still carries a summary from each earlier transition (its two entries in the inspector), and test output goes to a clearable test_log.',
    },
    scenario: {
      version: 1,
      name: 'three-stage-history',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': THREE_STAGES },
      inputs: { task: CODING_TASK },
      generator: { kind: 'coding-agent', seed: 7, steps: 200, params: { todos: null } },
      // The generator makes one transition; the third stage's few events follow it.
      traffic: [
        { type: 'transition', to: 'verify' },
        {
          type: 'assistant',
          content: 'Running the whole suite.',
          tool_calls: [{ id: 'v1', name: 'shell', arguments: { command: 'cargo test' } }],
        },
        { type: 'tool_result', tool_call_id: 'v1', tool_name: 'shell', size_tokens: 6000 },
        {
          type: 'assistant',
          content: 'Two failures left; rerunning the parser tests.',
          tool_calls: [{ id: 'v2', name: 'shell', arguments: { command: 'cargo test parser' } }],
        },
        { type: 'tool_result', tool_call_id: 'v2', tool_name: 'shell', size_tokens: 2500 },
        { type: 'assistant', content: 'All parser tests pass; the empty continuation line is accepted.' },
      ],
    },
  },
  {
    id: 'cascade',
    title: 'The overflow cascade: budgets over the window',
    summary:
      "Six regions whose budgets add up to 135% of a 32,000-token window. A long chat fills the conversation to its 45%, then the agent fetches a page into notes (temporary), greps into scratch (clearable) and reads four files into codebase (compacting). Each region stays inside its own budget, but the request after the last read would be over the window, so the window-level cascade sheds by kind: all of notes first, then scratch, then codebase folds its oldest read into a summary, which is enough; the conversation (sliding_window) and the files hashmap, later in the order, and the pinned task keep everything. A request still over the window after the cascade says, in the step's warnings, what is left in it and why. Lower codebase's budget to 40% and replay: it compacts against its own budget before the window is reached, and the run has no cascade at all.",
    lesson: {
      view: 'regions',
      at: { event: 'change', type: 'cascade' },
      region: 'codebase',
      look: 'This request would have been over the 32,000-token window, so the cascade shed by kind: notes (temporary) lost all of its 1,200 tokens, then scratch (clearable) its 1,500, then codebase (compacting) folded its oldest read; the conversation and the files hashmap, later in the order, kept everything.',
    },
    scenario: {
      version: 1,
      name: 'cascade',
      model: { window: 32000 },
      agent: { 'agent.leviath': CASCADE },
      inputs: { task: CODING_TASK },
      generator: { kind: 'long-chat', seed: 3, steps: 200 },
      // The chat fills the conversation; these calls then fill the other regions until one request
      // overflows, and a short exchange follows it so the drop is not at the chart's edge.
      traffic: [
        ...toolCall(
          'f1',
          'fetch',
          { url: 'https://www.rfc-editor.org/rfc/rfc9112#section-5.2' },
          1200,
          'Checking what RFC 9112 says about obsolete line folding.',
        ),
        ...toolCall(
          'g1',
          'grep',
          { pattern: 'continuation', path: 'src' },
          1500,
          'Finding where continuation lines are handled.',
        ),
        ...toolCall('r1', 'read_file', { path: 'src/parser/header.rs' }, 5000, 'Reading the header parser.'),
        ...toolCall('r2', 'read_file', { path: 'src/parser/lexer.rs' }, 5000, 'Reading the lexer that feeds it.'),
        ...toolCall(
          'r3',
          'read_file',
          { path: 'src/engine/limits.rs' },
          3000,
          'Reading the limits the engine applies.',
        ),
        ...toolCall('r4', 'read_file', { path: 'tests/header_folding.rs' }, 6000, 'Reading the failing test.'),
        { type: 'assistant', content: 'The lexer drops the empty line before the parser sees the fold.' },
        { type: 'user', content: 'Good catch. Can the lexer keep it and let the parser decide?' },
        {
          type: 'assistant',
          content:
            'Yes: the lexer should pass an empty line through as a token of its own, and parse_header should treat it as the end of a folded value.',
        },
        { type: 'user', content: 'Do that, and keep the public API unchanged.' },
        { type: 'assistant', content: 'I will change the lexer first, then the parser, then rerun the folding test.' },
        { type: 'user', content: 'Also check the limits still count a folded header once.' },
        { type: 'assistant', content: 'They do: limits.rs counts headers after parsing, so a fold is one header.' },
      ],
    },
  },
  {
    id: 'imported-run',
    title: 'A real run, imported',
    summary:
      'Not synthetic traffic: a Claude Code session brought in with lev import (Read, Bash and Edit mapped to read_file, shell and edit_file; file_path kept as the path). Watch the 7,000-token read of the parser arrive in a codebase region that compacts at 4,000 tokens and fold to a summary at once, so each later request is a few hundred tokens where the flat baseline carries over 7,000; file_tracking rewrite its line for the edited file; the failing test run kept as an error result; and the conversation slide at six items, stripping the results it leaves unpaired, while the task stays pinned. Drop your own session file on the page to replay it through this layout.',
    lesson: {
      view: 'window',
      at: { event: 'change', type: 'compact', region: 'codebase' },
      region: 'codebase',
      look: "The session's 7,000-token read of the parser lands in a codebase region that compacts at 4,000 tokens and folds to a summary at once, so later requests stay a few hundred tokens where the flat list carries over 7,000.",
    },
    scenario: {
      version: 1,
      name: 'imported-run',
      description: 'Imported from a claude-code trace (claude-sonnet-4-5-20250929); tool output kept as its size.',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': IMPORTED_RUN },
      inputs: { task: IMPORTED_RUN_TASK },
      traffic: IMPORTED_RUN_TRAFFIC,
    },
  },
];

export const DEFAULT_EXAMPLE_ID = 'coding-agent';

export function findExample(id: string): Example | undefined {
  return EXAMPLES.find((example) => example.id === id);
}
