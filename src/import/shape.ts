// "Shape only": a scenario with every text replaced by its size, so a share link shows the same
// charts without the content. Messages and tool results become `size_tokens` (the replay fills
// them with deterministic filler of exactly that size); tool names and file paths stay (hashed by
// hashScenarioPaths on request), other tool arguments go and their tokens are added to the turn's
// size; other texts (the task, workdir files, runtime-tool content) become filler of that size.
import { fillerText, type Scenario, type TrafficEvent, countTokens } from '../engine/page.ts';
import { dropToolOutput, scenarioEncoding } from '../share/shrink.ts';
import { HARNESS_PROMPT_INPUT } from './index.ts';

/** `src/parser/header.rs` -> `path-1a2b3c4d.rs`: FNV-1a of the whole path, the extension kept. */
export function hashPath(path: string): string {
  let h = 2166136261;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 16777619);
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(path)?.[0] ?? '';
  return `path-${(h >>> 0).toString(16).padStart(8, '0')}${ext}`;
}

/** Every tool call's `arguments.path` replaced by hashPath (the same path, the same hash). */
export function hashScenarioPaths(scenario: Scenario): Scenario {
  return {
    ...scenario,
    traffic: scenario.traffic.map((event) =>
      event.type !== 'assistant' || !event.tool_calls?.length
        ? event
        : {
            ...event,
            tool_calls: event.tool_calls.map((c) =>
              typeof c.arguments.path === 'string'
                ? { ...c, arguments: { ...c.arguments, path: hashPath(c.arguments.path) } }
                : c,
            ),
          },
    ),
  };
}

/**
 * Each call's time as the time since the run's first timed call, from 1970-01-01T00:00:00Z: the
 * gaps between calls stay (the as-sent replay expires the cache by them), the date and the time of
 * day the person worked go.
 */
function relativeTime(scenario: Scenario): (at: string) => string {
  const first = scenario.traffic.find((e) => e.type === 'assistant' && e.at !== undefined);
  const origin = first?.type === 'assistant' && first.at !== undefined ? Date.parse(first.at) : 0;
  return (at) => new Date(Math.max(0, Date.parse(at) - origin)).toISOString();
}

export function shapeOnly(scenario: Scenario): Scenario {
  const encoding = scenarioEncoding(scenario);
  const sinceFirst = relativeTime(scenario);
  const count = (text: string) => countTokens(text, encoding);
  const filler = (text: string, seed: string) => fillerText(count(text), 'text', seed, countTokens, encoding);
  const fillAll = (files: Record<string, string>, seed: string) =>
    Object.fromEntries(Object.entries(files).map(([k, v]) => [k, filler(v, `${seed}:${k}`)]));
  const traffic = dropToolOutput(scenario, countTokens).traffic.map((event, i): TrafficEvent => {
    switch (event.type) {
      case 'user':
        return { type: 'user', content: '', size_tokens: event.size_tokens ?? count(event.content) };
      case 'assistant': {
        const text = event.size_tokens ?? count(event.content);
        // The provider's record is numbers (and the model's name): it stays; reasoning keeps its size
        // only; the call's time becomes the time since the first call.
        const extra = {
          ...(event.recorded ? { recorded: event.recorded } : {}),
          ...(event.at !== undefined ? { at: sinceFirst(event.at) } : {}),
          ...(event.reasoning
            ? {
                reasoning: {
                  size_tokens: event.reasoning.size_tokens ?? count(event.reasoning.content ?? ''),
                  ...(event.reasoning.encrypted ? { encrypted: true as const } : {}),
                },
              }
            : {}),
        };
        if (!event.tool_calls?.length) return { type: 'assistant', content: '', size_tokens: text, ...extra };
        let removed = 0;
        const tool_calls = event.tool_calls.map((call) => {
          const args = typeof call.arguments.path === 'string' ? { path: call.arguments.path } : {};
          removed +=
            count(JSON.stringify({ name: call.name, arguments: call.arguments })) -
            count(JSON.stringify({ name: call.name, arguments: args }));
          return { id: call.id, name: call.name, arguments: args };
        });
        return { type: 'assistant', content: '', size_tokens: Math.max(0, text + removed), tool_calls, ...extra };
      }
      case 'compaction':
        return { ...event, summary: '', size_tokens: event.size_tokens ?? count(event.summary) };
      case 'context_append':
        return { ...event, content: filler(event.content, `append:${i}`) };
      case 'todo_add':
        return { ...event, item: filler(event.item, `todo:${i}`) };
      case 'todo_note':
        return { ...event, note: filler(event.note, `note:${i}`) };
      default:
        return event;
    }
  });

  const inputs: Scenario['inputs'] = {};
  for (const [key, value] of Object.entries(scenario.inputs)) {
    if (key === HARNESS_PROMPT_INPUT) continue; // never replayed; not worth its size in a link
    if (typeof value === 'string') inputs[key] = filler(value, `input:${key}`);
    else if (key === 'caller' && value) inputs.caller = fillAll(value as Record<string, string>, 'caller');
  }
  return {
    ...scenario,
    description: `${scenario.description ? `${scenario.description} ` : ''}Shape only: texts replaced by filler of the same token count.`,
    workdir: fillAll(scenario.workdir, 'workdir'),
    commands: fillAll(scenario.commands, 'command'),
    inputs,
    traffic,
  };
}
