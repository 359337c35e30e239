// Replay speed, timeline memory and scaling on generated coding-agent scenarios (issue 4).
//
//   npx tsx bench/replay.ts          (or through `npm run bench`, which imports benchReplay)
//
// Figures: replay time against counting the same text's tokens once in the same process (the
// floor: goal <= 1.3x), the timeline's retained heap, replay time at 500 / 2,000 / 8,000 / 32,000
// events (goal: linear), and the page worker's inspect: any step of a kept run (goal p95 <= 16 ms).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Replay, replay } from '../src/scenarios/engine.ts';
import { ScenarioSchema, type Scenario, type TrafficEvent } from '../src/engine/scenario.ts';
import { countTokens, loadEncodings, type Encoding } from '../src/engine/tokens.ts';
import { EXAMPLES } from '../src/scenarios/examples.ts';
import { generateTraffic } from '../src/scenarios/generators.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The spec's coding-agent layout on a 200k-token model, with `events` generated events inlined. */
function codingScenario(events: number, inlineResults: boolean, seed = 7): Scenario {
  const example = EXAMPLES.find((e) => e.id === 'coding-agent')!.scenario;
  const traffic = generateTraffic({ kind: 'coding-agent', seed, steps: events, params: { inlineResults } });
  return ScenarioSchema.parse({ ...example, model: { id: 'claude-sonnet-4' }, generator: undefined, traffic });
}

/** Every piece of text the replay tokenizes. */
function trafficText(events: readonly TrafficEvent[]): string[] {
  const texts: string[] = [];
  for (const e of events) {
    if (e.type === 'user' || e.type === 'assistant') texts.push(e.content);
    if (e.type === 'assistant') for (const c of e.tool_calls ?? []) texts.push(JSON.stringify({ name: c.name, arguments: c.arguments }));
    // A size_tokens result's text is never tokenized by the replay, so it is no part of the floor.
    if (e.type === 'tool_result' && e.content !== undefined) texts.push(e.content);
    if (e.type === 'context_append') texts.push(e.content);
    if (e.type === 'todo_add') texts.push(e.item);
  }
  return texts;
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

export interface ReplayFigures {
  events: number;
  inlineResults: boolean;
  toolTokens: number;
  replayMs: number;
  tokenizeMs: number;
  ratio: number;
  timelineBytes: number;
  timelineJsonBytes: number;
}

function measure(events: number, inlineResults: boolean): ReplayFigures {
  const encoding: Encoding = 'o200k_base';
  // Each run replays a fresh seed, so neither side finds its text in a cache from an earlier run;
  // the two are interleaved so both see the same machine load (the cores are shared).
  const runs = events > 16_000 ? 1 : events > 4_000 ? 3 : 5;
  replay(codingScenario(events, inlineResults, 1)); // warm the JIT
  const tokenizeRuns: number[] = [];
  const replayRuns: number[] = [];
  let scenario!: Scenario;
  for (let i = 0; i < runs; i++) {
    scenario = codingScenario(events, inlineResults, 7 + i);
    const texts = trafficText(scenario.traffic);
    tokenizeRuns.push(time(() => { for (const t of texts) countTokens(t, encoding); }).ms);
    replayRuns.push(time(() => replay(scenario)).ms);
  }
  // Best of N: on shared cores the fastest run is the one least disturbed by other work.
  const tokenizeMs = Math.min(...tokenizeRuns);
  const replayMs = Math.min(...replayRuns);
  let toolTokens = 0;
  for (const e of scenario.traffic) if (e.type === 'tool_result') toolTokens += e.size_tokens ?? countTokens(e.content!, encoding);

  gc();
  const before = process.memoryUsage().heapUsed;
  const timeline = replay(scenario);
  gc();
  const timelineBytes = process.memoryUsage().heapUsed - before;
  const timelineJsonBytes = JSON.stringify(timeline).length;
  const ratio = replayMs / tokenizeMs;
  return { events: scenario.traffic.length, inlineResults, toolTokens, replayMs, tokenizeMs, ratio, timelineBytes, timelineJsonBytes };
}

export interface InspectFigures {
  events: number;
  /** The page worker's replay, keeping a snapshot per step, against a plain replay. */
  keptReplayMs: number;
  plainReplayMs: number;
  /** Inspecting random steps of the kept run, including the structured clone postMessage makes. */
  p50Ms: number;
  p95Ms: number;
}

/** What a scrub costs in the page's engine worker: a lookup in the run its replay kept. */
export function benchInspect(events = 8_000): InspectFigures {
  const scenario = codingScenario(events, true, 11);
  const plainReplayMs = time(() => replay(scenario)).ms;
  const run = new Replay(scenario);
  const { ms: keptReplayMs, value: timeline } = time(() => run.timeline());
  const samples: number[] = [];
  for (let i = 0; i < 400; i++) {
    const step = Math.floor(Math.random() * timeline.steps.length);
    samples.push(time(() => structuredClone(run.inspect(step))).ms);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;
  const figures = { events: timeline.steps.length, keptReplayMs, plainReplayMs, p50Ms: at(0.5), p95Ms: at(0.95) };
  console.log(`inspect: ${n(figures.events)} events, replay keeping snapshots ${keptReplayMs.toFixed(0)} ms (plain ${plainReplayMs.toFixed(0)} ms); any step p50 ${figures.p50Ms.toFixed(2)} ms, p95 ${figures.p95Ms.toFixed(2)} ms`);
  return figures;
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const n = (v: number) => v.toLocaleString('en-US');

export async function benchReplay(): Promise<ReplayFigures[]> {
  const figures: ReplayFigures[] = [];
  for (const inline of [true, false]) {
    for (const events of [500, 2_000, 8_000, 32_000]) figures.push(measure(events, inline));
  }
  console.log('replay (spec coding-agent layout, claude-sonnet-4, 200k window)');
  console.log('events  results        tool tokens  replay ms  count-once ms  ratio  timeline heap  timeline JSON');
  for (const f of figures) {
    console.log([
      String(f.events).padStart(6), (f.inlineResults ? 'inline text' : 'size_tokens').padEnd(13), n(f.toolTokens).padStart(12),
      f.replayMs.toFixed(0).padStart(10), f.tokenizeMs.toFixed(0).padStart(14), f.ratio.toFixed(2).padStart(6),
      mb(f.timelineBytes).padStart(14), mb(f.timelineJsonBytes).padStart(14),
    ].join('  '));
  }
  for (const inline of [true, false]) {
    const rows = figures.filter((f) => f.inlineResults === inline);
    const perEvent = rows.map((f) => (f.replayMs / f.events) * 1000);
    console.log(`${inline ? 'inline' : 'size_tokens'}: microseconds per event at ${rows.map((f) => n(f.events)).join(' / ')}: ${perEvent.map((v) => v.toFixed(0)).join(' / ')}`);
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await loadEncodings();
  await benchReplay();
  benchInspect();
}
