// The data side of custom-region hooks: the `ctx` maps the hooks receive and the reading of what
// they return. Pure functions over Rhai values, so the region (regions/custom.ts) only decides what
// to do with a well-typed answer. Loading and calling scripts lives in custom-script.ts, which hands
// these to the region with its hooks (HOOK_IO), so they load with the interpreter.
import { displayString } from '../rhai/format.ts';
import { RhaiChar, RhaiFloat, RhaiRange, typeName, type RhaiMap, type RhaiValue } from '../rhai/values.ts';
import type {
  HookEntry,
  HookIO,
  Read,
  RegionFacts,
  RenderAnswer,
  RenderFacts,
  ScriptMessage,
  WriteAnswer,
} from './rhai-host.ts';
import type { ToolCall } from './timeline.ts';

export type { HookEntry, Read, RegionFacts, RenderAnswer, RenderFacts, ScriptMessage, WriteAnswer };

// ---- ctx -------------------------------------------------------------------------------------

export function regionMap(r: RegionFacts): RhaiMap {
  return new Map<string, RhaiValue>([
    ['name', r.name],
    ['budget', r.budget],
    ['current_tokens', r.tokens],
    ['entry_count', r.entryCount],
  ]);
}

/** JSON-like JS (tool-call arguments) as Rhai: objects become maps, null becomes (). */
export function jsToRhai(value: unknown): RhaiValue {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value : new RhaiFloat(value);
  if (Array.isArray(value)) return value.map(jsToRhai);
  if (typeof value === 'object')
    return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsToRhai(v)]));
  return String(value);
}

/** Rhai back to JSON-like JS (tool-call arguments a script emits). */
export function rhaiToJs(value: RhaiValue): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof RhaiFloat) return value.v;
  if (value instanceof RhaiChar) return value.c;
  if (Array.isArray(value)) return value.map(rhaiToJs);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, rhaiToJs(v)]));
  if (value instanceof RhaiRange) return [rhaiToJs(value.start), rhaiToJs(value.end)];
  if (typeof value === 'object') return displayString(value);
  return value;
}

function toolCallMap(call: ToolCall): RhaiMap {
  return new Map<string, RhaiValue>([
    ['id', call.id],
    ['name', call.name],
    ['arguments', jsToRhai(call.arguments)],
  ]);
}

/**
 * One entry as the spec's ctx shows it. `timestamp` is the entry's write order (a replay has no
 * clock); `key` is () when unset. Tool calls on assistant turns; call id, tool name and error flag on
 * tool results (and on the stubs that stand for results routed elsewhere).
 */
export function entryMap(entry: HookEntry): RhaiMap {
  const m: RhaiMap = new Map<string, RhaiValue>([
    ['content', entry.content],
    ['tokens', entry.tokens],
    ['timestamp', entry.seq],
    ['key', entry.key],
    ['kind', entry.kind],
  ]);
  if (entry.kind === 'assistant_turn') m.set('tool_calls', (entry.toolCalls ?? []).map(toolCallMap));
  if (entry.kind === 'tool_result' || (entry.kind === 'stub' && entry.toolCallId !== undefined)) {
    m.set('tool_call_id', entry.toolCallId ?? '');
    m.set('tool_name', entry.toolName ?? '');
    m.set('is_error', entry.isError ?? false);
  }
  return m;
}

export function renderCtx(f: RenderFacts): RhaiMap {
  return new Map<string, RhaiValue>([
    ['region', regionMap(f.region)],
    ['entries', f.entries.map(entryMap)],
    ['stage_name', f.stage],
    ['stage_iterations', f.stageIterations],
    ['model', f.model],
    [
      'window',
      new Map<string, RhaiValue>([
        ['total_tokens', f.windowTokens],
        ['max_tokens', f.windowMax],
      ]),
    ],
  ]);
}

export function writeCtx(region: RegionFacts, entry: HookEntry): RhaiMap {
  const e = new Map<string, RhaiValue>([
    ['content', entry.content],
    ['kind', entry.kind],
    ['tokens', entry.tokens],
  ]);
  return new Map<string, RhaiValue>([
    ['region', regionMap(region)],
    ['entry', e],
  ]);
}

export function overflowCtx(region: RegionFacts, entries: readonly HookEntry[], needed: number): RhaiMap {
  return new Map<string, RhaiValue>([
    ['region', regionMap(region)],
    ['entries', entries.map(entryMap)],
    ['needed_tokens', needed],
  ]);
}

// ---- reading answers ---------------------------------------------------------------------------

const fail = <T>(error: string): Read<T> => ({ ok: false, error });

/** render's return: a string, or a map with `system` (string or array of strings) and `messages`. */
export function readRender(value: RhaiValue): Read<RenderAnswer> {
  if (typeof value === 'string') return { ok: true, value: { system: value ? [value] : [], messages: [], notes: [] } };
  if (!(value instanceof Map))
    return fail(`render must return a string or a map with system / messages, got ${typeName(value)}`);
  const notes = [...value.keys()]
    .filter((k) => k !== 'system' && k !== 'messages')
    .map((k) => `render returned an unknown key "${k}" (only system and messages are read)`);
  const system = readSystem(value.get('system'), notes);
  if (!system.ok) return system;
  const messages = readMessages(value.get('messages'), notes);
  if (!messages.ok) return messages;
  return { ok: true, value: { system: system.value, messages: messages.value, notes } };
}

// One part of an answer that cannot be used (a system message, a string where a map belongs) is
// left out with a note; the rest of the answer is still the script's. Only an answer whose shape
// is wrong as a whole falls back to the plain rendering.

function readSystem(value: RhaiValue, notes: string[]): Read<string[]> {
  if (value === undefined) return { ok: true, value: [] };
  if (typeof value === 'string') return { ok: true, value: value ? [value] : [] };
  if (!Array.isArray(value))
    return fail(`render's system must be a string or an array of strings, got ${typeName(value)}`);
  const out: string[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string')
      notes.push(`render's system[${i}] must be a string, got ${typeName(item)}; that part was left out`);
    else if (item) out.push(item);
  }
  return { ok: true, value: out };
}

function readMessages(value: RhaiValue, notes: string[]): Read<ScriptMessage[]> {
  if (value === undefined) return { ok: true, value: [] };
  if (!Array.isArray(value)) return fail(`render's messages must be an array of maps, got ${typeName(value)}`);
  const out: ScriptMessage[] = [];
  for (const [i, item] of value.entries()) {
    const read = readMessage(item, `messages[${i}]`);
    if (read.ok) out.push(...read.value);
    else notes.push(`${read.error}; that message was left out`);
  }
  return { ok: true, value: out };
}

const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'tool']);

/** One message map; a `tool_results` array expands into one tool message per result, then the text. */
function readMessage(value: RhaiValue, where: string): Read<ScriptMessage[]> {
  if (!(value instanceof Map))
    return fail(`render's ${where} must be a map with role and content, got ${typeName(value)}`);
  const role = value.get('role');
  if (typeof role !== 'string' || !ROLES.has(role)) {
    return fail(
      `render's ${where}.role must be "user", "assistant" or "tool", got ${typeof role === 'string' ? `"${role}"` : typeName(role)}`,
    );
  }
  const content = value.get('content') ?? '';
  if (typeof content !== 'string') return fail(`render's ${where}.content must be a string, got ${typeName(content)}`);
  const message: ScriptMessage = { role: role as ScriptMessage['role'], content };
  const out: ScriptMessage[] = [];
  const calls = value.get('tool_calls');
  if (calls !== undefined) {
    if (role !== 'assistant')
      return fail(`render's ${where} carries tool_calls but its role is "${role}"; only assistant messages call tools`);
    const read = readToolCalls(calls, where);
    if (!read.ok) return read;
    if (read.value.length) message.tool_calls = read.value;
  }
  const callId = value.get('tool_call_id');
  if (callId !== undefined) {
    if (typeof callId !== 'string')
      return fail(`render's ${where}.tool_call_id must be a string, got ${typeName(callId)}`);
    if (role !== 'tool')
      return fail(`render's ${where} has a tool_call_id but its role is "${role}"; use role "tool" for a tool result`);
    message.tool_call_id = callId;
  } else if (role === 'tool') {
    return fail(`render's ${where} has role "tool" but no tool_call_id`);
  }
  const results = value.get('tool_results');
  if (results !== undefined) {
    const read = readToolResults(results, where);
    if (!read.ok) return read;
    out.push(...read.value);
    if (message.content.length === 0 && !message.tool_calls) return { ok: true, value: out };
  }
  out.push(message);
  return { ok: true, value: out };
}

function readToolCalls(value: RhaiValue, where: string): Read<ToolCall[]> {
  if (!Array.isArray(value)) return fail(`render's ${where}.tool_calls must be an array, got ${typeName(value)}`);
  const out: ToolCall[] = [];
  for (const [i, call] of value.entries()) {
    const at = `${where}.tool_calls[${i}]`;
    if (!(call instanceof Map))
      return fail(`render's ${at} must be a map with id, name and arguments, got ${typeName(call)}`);
    const id = call.get('id');
    const name = call.get('name');
    const args = call.get('arguments') ?? new Map();
    if (typeof id !== 'string' || id === '') return fail(`render's ${at}.id must be a non-empty string`);
    if (typeof name !== 'string' || name === '') return fail(`render's ${at}.name must be a non-empty string`);
    if (!(args instanceof Map)) return fail(`render's ${at}.arguments must be a map, got ${typeName(args)}`);
    out.push({ id, name, arguments: rhaiToJs(args) as Record<string, unknown> });
  }
  return { ok: true, value: out };
}

function readToolResults(value: RhaiValue, where: string): Read<ScriptMessage[]> {
  if (!Array.isArray(value)) return fail(`render's ${where}.tool_results must be an array, got ${typeName(value)}`);
  const out: ScriptMessage[] = [];
  for (const [i, result] of value.entries()) {
    const at = `${where}.tool_results[${i}]`;
    if (!(result instanceof Map))
      return fail(`render's ${at} must be a map with tool_call_id and content, got ${typeName(result)}`);
    const id = result.get('tool_call_id');
    const content = result.get('content') ?? '';
    if (typeof id !== 'string' || id === '') return fail(`render's ${at}.tool_call_id must be a non-empty string`);
    if (typeof content !== 'string') return fail(`render's ${at}.content must be a string, got ${typeName(content)}`);
    out.push({ role: 'tool', content, tool_call_id: id });
  }
  return { ok: true, value: out };
}

/** on_write's return: a string replaces the content, true or () accepts, false drops. */
export function readOnWrite(value: RhaiValue): Read<WriteAnswer> {
  if (value === undefined || value === true) return { ok: true, value: { action: 'accept' } };
  if (value === false) return { ok: true, value: { action: 'drop' } };
  if (typeof value === 'string') return { ok: true, value: { action: 'replace', content: value } };
  return fail(`on_write must return a string, true, false or (), got ${typeName(value)}`);
}

/** on_overflow's return: an array of entry indices (duplicates ignored), each in range. */
export function readOnOverflow(value: RhaiValue, entryCount: number): Read<number[]> {
  if (!Array.isArray(value)) return fail(`on_overflow must return an array of entry indices, got ${typeName(value)}`);
  const seen = new Set<number>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'number' && typeof item !== 'bigint')
      return fail(`on_overflow's result[${i}] must be an integer index, got ${typeName(item)}`);
    const index = Number(item);
    if (index < 0 || index >= entryCount)
      return fail(`on_overflow's result[${i}] is ${index}, outside 0..${entryCount - 1}`);
    seen.add(index);
  }
  return { ok: true, value: [...seen].sort((a, b) => a - b) };
}

/** What the region takes with its hooks (rhai-host.ts's CustomHooks.io). */
export const HOOK_IO: HookIO = { renderCtx, readRender, writeCtx, readOnWrite, overflowCtx, readOnOverflow };
