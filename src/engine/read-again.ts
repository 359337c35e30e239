// Information lost, measured: an entry the blueprint dropped, summarized or cut whose file path or
// key the run names again later. The traffic is fixed, so the run's later calls and words are what
// the agent went on to need; a name it comes back to after the blueprint let it go is the cost of
// a tight budget that the token figures do not show. What matches and what does not is written
// down in docs/decisions/advise.md ("Read again later").
import { lookupTool } from './routing.ts';
import type { Change, ChangeType, ReadAgainItem, TimelineStep } from './timeline.ts';
import type { TrafficEvent } from './scenario.ts';

/**
 * The tools whose `path` names a file (aliases included, as routing matches them). A search or a
 * listing keyed by its directory is not a name: a later grep over `src` for another pattern does
 * not need the earlier one's output.
 */
const FILE_TOOLS = { read_file: true, write_file: true, edit_file: true };

/** The changes that take content out of the window (`delete` is the agent's own choice; `strip` and `replace` lose nothing the region held). */
const LOSSES: ReadonlySet<ChangeType> = new Set<ChangeType>(['evict', 'compact', 'clear', 'cascade', 'truncate']);

/** Where read_file's own byte cap reports its cuts: the harness's rule, the same under every blueprint. */
const HARNESS_CAP = '(read_file)';

/** Characters that continue a path or a key: a name only counts where it is not part of a longer one. */
const NAME_CHAR = /[A-Za-z0-9_.~\-/\\]/;
const isNameChar = (c: string | undefined): boolean => c !== undefined && NAME_CHAR.test(c);

/** A path written from a root (`/home/dev/x.rs`, `~/x.rs`, `C:\x.rs`): the model may also name it by its tail. */
const ABSOLUTE = /^(?:\/|~\/|[A-Za-z]:[\\/])/;

/**
 * Where `needle` stands in `text` as a whole name: not inside a longer path or word. A name may be
 * followed by a full stop that ends a sentence (`Reading src/a.rs.`), not by one that goes on.
 */
export function namesIn(text: string, needle: string): boolean {
  if (needle.length === 0) return false;
  const guardStart = isNameChar(needle[0]);
  const guardEnd = isNameChar(needle[needle.length - 1]);
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (guardStart && isNameChar(text[at - 1])) continue;
    const end = at + needle.length;
    if (guardEnd && isNameChar(text[end]) && !(text[end] === '.' && !isNameChar(text[end + 1]))) continue;
    return true;
  }
  return false;
}

/**
 * What names `key` in the run's text: the key itself, and for an absolute path each tail of two or
 * more segments (`src/parser/header.rs` names `/home/dev/parser/src/parser/header.rs`). A single
 * file name is not enough: `header.rs` could be any of several files.
 */
export function needlesOf(key: string): string[] {
  if (!ABSOLUTE.test(key)) return [key];
  const segments = key.split(/[\\/]/).filter((s) => s.length > 0);
  const tails: string[] = [];
  for (let i = segments.length - 2; i >= 1; i--) tails.push(segments.slice(i).join('/'));
  return [key, ...tails];
}

/** Every string in a call's arguments, nested ones included. */
function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsOf(item, out);
}

/**
 * The run's facts that do not depend on the blueprint: which labels are names (the paths file
 * tools were called with, `context_append` keys, keys seeded at spawn), the file each call names,
 * and at which steps the model names each key again. Built once per traffic and shared by every
 * replay of it (the advisor replays the same traffic hundreds of times).
 */
export class RunNames {
  /** Steps of assistant events, and the texts each one says and passes: its content and its calls' string arguments. */
  private readonly steps: number[] = [];
  private readonly texts: string[][] = [];
  private readonly keys = new Set<string>();
  /** Call id -> the steps it was made at and the file it named (ids can repeat across a run). */
  private readonly callPaths = new Map<string, { at: number; path: string | undefined }[]>();
  private readonly namings = new Map<string, Int32Array>();

  constructor(events: readonly TrafficEvent[], seededKeys: Iterable<string> = []) {
    for (const key of seededKeys) this.keys.add(key);
    events.forEach((event, index) => {
      if (event.type === 'context_append' && event.key !== undefined) this.keys.add(event.key);
      if (event.type !== 'assistant') return;
      const texts = event.content ? [event.content] : [];
      for (const call of event.tool_calls ?? []) {
        const path = typeof call.arguments.path === 'string' && lookupTool(FILE_TOOLS, call.name) ? call.arguments.path : undefined;
        if (path !== undefined) this.keys.add(path);
        let made = this.callPaths.get(call.id);
        if (!made) this.callPaths.set(call.id, (made = []));
        made.push({ at: index, path });
        stringsOf(call.arguments, texts);
      }
      if (texts.length === 0) return;
      this.steps.push(index);
      this.texts.push(texts);
    });
  }

  /** True when `label` (a change's entry: its key, or its first line) is a key the run wrote. */
  isName(label: string): boolean {
    return this.keys.has(label);
  }

  /** The file the call `id` made at or before `step` named, if it was a file tool's. */
  pathOfCall(id: string, step: number): string | undefined {
    const made = this.callPaths.get(id) ?? [];
    for (let i = made.length - 1; i >= 0; i--) if (made[i]!.at <= step) return made[i]!.path;
    return undefined;
  }

  /** The first step after `step` (or at it, when `atStep`) whose assistant event names `key`; undefined when none does. */
  nextNaming(key: string, step: number, atStep: boolean): number | undefined {
    const steps = this.stepsNaming(key);
    const first = atStep ? step : step + 1;
    let lo = 0;
    let hi = steps.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (steps[mid]! < first) lo = mid + 1;
      else hi = mid;
    }
    return lo < steps.length ? steps[lo] : undefined;
  }

  private stepsNaming(key: string): Int32Array {
    let found = this.namings.get(key);
    if (found) return found;
    const needles = needlesOf(key);
    const at: number[] = [];
    for (let i = 0; i < this.steps.length; i++) {
      if (this.texts[i]!.some((text) => needles.some((needle) => namesIn(text, needle)))) at.push(this.steps[i]!);
    }
    this.namings.set(key, (found = Int32Array.from(at)));
    return found;
  }
}

/**
 * Counts, as a run goes, the dropped entries the run names again. Each entry a loss names (a key
 * among an `evict`, `compact`, `clear` or `cascade` change's entries, or the path of a call whose
 * result a `max_result_tokens` cap cut) is read again when a later assistant event names it. A
 * `cascade` sheds before the request of its own step is sent, so the reply of that step counts as
 * later. Entries under one key lost before the same naming count once: the run came back for that
 * file once (and a result cut and then dropped is one entry, not two).
 */
export class ReadAgainCounter {
  private readonly seen = new Set<string>();
  readonly items: ReadAgainItem[] = [];

  /** `mark`: write each change's `readAgain` (the timeline's marker); off for the advisor, which keeps no changes. */
  constructor(private readonly names: RunNames, private readonly mark = false) {}

  get count(): number {
    return this.items.length;
  }

  /** The changes of step `step` (-1 for the spawn's). */
  observe(step: number, changes: readonly Change[]): void {
    for (const change of changes) {
      if (!LOSSES.has(change.type) || change.region === HARNESS_CAP) continue;
      let marks: { key: string; step: number }[] | undefined;
      for (const label of change.entries) {
        const key = change.type === 'truncate' ? this.names.pathOfCall(label, step) : this.names.isName(label) ? label : undefined;
        if (key === undefined) continue;
        const namedAt = this.names.nextNaming(key, step, change.type === 'cascade');
        if (namedAt === undefined) continue;
        if (this.mark) (marks ??= []).push({ key, step: namedAt });
        const id = `${namedAt}\u0000${key}`;
        if (this.seen.has(id)) continue;
        this.seen.add(id);
        this.items.push({ key, lostAt: step, namedAt, change: change.type, region: change.region });
      }
      if (marks) change.readAgain = marks;
    }
  }
}

/** Marks the timeline's changes and sums them up: the spawn's changes, then each step's. */
export function readAgainOf(names: RunNames, spawnChanges: readonly Change[], steps: readonly TimelineStep[]): ReadAgainItem[] {
  const counter = new ReadAgainCounter(names, true);
  counter.observe(-1, spawnChanges);
  for (const step of steps) counter.observe(step.index, step.changes);
  return counter.items;
}
