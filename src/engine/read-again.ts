// Information lost, measured: an entry the blueprint dropped, summarized or cut whose file path or
// key the run names again later. The traffic is fixed, so the run's later calls and words are what
// the agent went on to need; a name it comes back to after the blueprint let it go is the cost of
// a tight budget that the token figures do not show. What matches and what does not is written
// down in docs/decisions/advise.md ("Read again later").
import { lookupTool } from './routing.ts';
import { itemAt } from './item-at.ts';
import { shellReads } from './shell-reads.ts';
import { lowerBound } from './sorted.ts';
import type { Change, ChangeType, LostFigures, ReadAgainItem, TimelineStep } from './timeline.ts';
import type { TrafficEvent } from './scenario.ts';

/**
 * The tools whose `path` names a file (aliases included, as routing matches them). A search or a
 * listing keyed by its directory is not a name: a later grep over `src` for another pattern does
 * not need the earlier one's output.
 */
/** The tools whose `path` keys their result (routing's aliases of them included, through lookupTool). */
export const FILE_TOOLS = { read_file: true, write_file: true, edit_file: true };
/** The shell (and its aliases): the files its command reads are what its result holds (shell-reads.ts). */
const SHELL_TOOLS = { shell: true };

/** The changes that take content out of the window (`delete` is the agent's own choice; `strip` and `replace` lose nothing the region held). */
const LOSSES: ReadonlySet<ChangeType> = new Set<ChangeType>(['evict', 'compact', 'clear', 'cascade', 'truncate']);

/** Where read_file's own byte cap reports its cuts: the harness's rule, the same under every blueprint. */
const HARNESS_CAP = '(read_file)';

/** Characters that continue a path or a key: a name only counts where it is not part of a longer one. */
const NAME_CHAR = /[A-Za-z0-9_.~\-/\\]/;
const isNameChar = (c: string | undefined): boolean => c !== undefined && NAME_CHAR.test(c);
const WHOLE_NAME = /^[A-Za-z0-9_.~\-/\\]+$/;

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
  else if (typeof value === 'object' && value !== null)
    for (const key in value) stringsOf((value as Record<string, unknown>)[key], out);
}

/** Name characters by code, for the word scan (a regular expression per character is several times slower). */
const NAME_CODES: Readonly<Uint8Array> = codesOf(
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.~-/\\',
);

function codesOf(chars: string): Uint8Array {
  const codes = new Uint8Array(128);
  for (const c of chars) codes[c.charCodeAt(0)] = 1;
  return codes;
}
const FULL_STOP = 46;

const NO_PATHS: readonly string[] = [];

/** What the traffic says, read once on the first loss: most steps of most runs lose nothing. */
interface Said {
  keys: Set<string>;
  /** Call id -> the steps it was made at and the files it named: a file tool's path, or the files a shell command read (ids can repeat across a run). */
  callPaths: Map<string, { at: number; paths: readonly string[] }[]>;
  /** Steps of assistant events, and the texts each one says and passes: its content and its calls' string arguments. */
  steps: number[];
  texts: string[][];
}

/**
 * The run's facts that do not depend on the blueprint: which labels are names (the paths file
 * tools were called with, `context_append` keys, keys seeded at spawn), the file each call names,
 * and at which steps the model names each key again. Built once per traffic and shared by every
 * replay of it (the advisor replays the same traffic hundreds of times).
 */
export class RunNames {
  private said: Said | undefined;
  private readonly namings = new Map<string, Int32Array>();
  private words: Map<string, number[]> | undefined;

  constructor(
    private readonly events: readonly TrafficEvent[],
    private readonly seededKeys: Iterable<string> = [],
  ) {}

  private read(): Said {
    if (this.said) return this.said;
    const said: Said = { keys: new Set(this.seededKeys), callPaths: new Map(), steps: [], texts: [] };
    for (const [index, event] of this.events.entries()) {
      if (event.type === 'context_append' && event.key !== undefined) said.keys.add(event.key);
      if (event.type !== 'assistant') continue;
      const texts = event.content ? [event.content] : [];
      for (const call of event.tool_calls ?? []) {
        const paths =
          typeof call.arguments.path === 'string' && lookupTool(FILE_TOOLS, call.name)
            ? [call.arguments.path]
            : lookupTool(SHELL_TOOLS, call.name)
              ? shellReads(call.arguments)
              : NO_PATHS;
        for (const path of paths) said.keys.add(path);
        let made = said.callPaths.get(call.id);
        if (!made) said.callPaths.set(call.id, (made = []));
        made.push({ at: index, paths });
        stringsOf(call.arguments, texts);
      }
      if (texts.length === 0) continue;
      said.steps.push(index);
      said.texts.push(texts);
    }
    return (this.said = said);
  }

  /** True when `label` (a change's entry: its key, or its first line) is a key the run wrote. */
  isName(label: string): boolean {
    return this.read().keys.has(label);
  }

  /** The files the call `id` made at or before `step` named: a file tool's path, or the files a shell command read. */
  pathsOfCall(id: string, step: number): readonly string[] {
    const made = this.read().callPaths.get(id) ?? [];
    return made.findLast((m) => m.at <= step)?.paths ?? NO_PATHS;
  }

  /** The first step after `step` (or at it, when `atStep`) whose assistant event names `key`; undefined when none does. */
  nextNaming(key: string, step: number, atStep: boolean): number | undefined {
    const steps = this.stepsNaming(key);
    const at = lowerBound(steps, atStep ? step : step + 1);
    return at < steps.length ? steps[at] : undefined;
  }

  private stepsNaming(key: string): Int32Array {
    let found = this.namings.get(key);
    if (found) return found;
    const needles = needlesOf(key);
    let at: number[];
    if (needles.every((n) => WHOLE_NAME.test(n))) {
      // A name made only of name characters stands whole exactly where it is one of the texts' words.
      const words = this.wordIndex();
      at =
        needles.length === 1
          ? (words.get(key) ?? [])
          : [...new Set(needles.flatMap((n) => words.get(n) ?? []))].sort((a, b) => a - b);
    } else {
      const { steps, texts } = this.read();
      at = [];
      for (const [i, step] of steps.entries()) {
        if (itemAt(texts, i).some((text) => needles.some((needle) => namesIn(text, needle)))) at.push(step);
      }
    }
    this.namings.set(key, (found = Int32Array.from(at)));
    return found;
  }

  /**
   * Each word of the texts (a longest run of name characters, and the same without one full stop
   * that ends a sentence) and the steps that say it, built on the first loss.
   */
  private wordIndex(): Map<string, number[]> {
    if (this.words) return this.words;
    const { steps, texts } = this.read();
    const words = new Map<string, number[]>();
    const note = (word: string, step: number) => {
      let at = words.get(word);
      if (!at) words.set(word, (at = []));
      if (at[at.length - 1] !== step) at.push(step);
    };
    for (const [i, step] of steps.entries()) {
      for (const text of itemAt(texts, i)) {
        let start = -1;
        for (let k = 0; k <= text.length; k++) {
          const code = k < text.length ? text.charCodeAt(k) : 0;
          const inWord = code < 128 && NAME_CODES[code] === 1;
          if (inWord) {
            if (start < 0) start = k;
            continue;
          }
          if (start < 0) continue;
          note(text.slice(start, k), step);
          if (text.charCodeAt(k - 1) === FULL_STOP && k - 1 > start) note(text.slice(start, k - 1), step);
          start = -1;
        }
      }
    }
    return (this.words = words);
  }
}

/** How a routed tool result's stub starts (DESIGN.md: `[routed to codebase: 2,431 tokens]`): its content lives in a region. */
const STUB = '[routed to ';

/**
 * Counts, as a run goes, the dropped entries the run names again. Each entry a loss names is read
 * again when a later assistant event names it. A loss is a key among an `evict`, `compact`, `clear`
 * or `cascade` change's entries; the file of a result a `max_result_tokens` cap cut; or the file of
 * a result a `strip` leaves out of every request because its call left (a result whose content is
 * in the message stream: a routed result's stub leaves nothing behind its region does not hold).
 * A `cascade` or a `strip` happens as the request of its own step is made, so the reply of that
 * step counts as later. Entries under one key lost before the same naming count once: the run came back for
 * that file once (and a result cut and then dropped is one entry, not two); the item lists every
 * loss it answers for, so a change can be marked wherever one of its entries is named again.
 */
export class ReadAgainCounter {
  /** Item index by key and naming step. */
  private readonly seen = new Map<string, number>();
  /** Call ids whose latest result's content went into the message stream (not a stub). */
  private readonly streamed = new Set<string>();
  readonly items: ReadAgainItem[] = [];
  /** Tool results let go (by call id): evicted, summarized, cleared, shed, or stripped once their call left. */
  private readonly toolResultsLost = new Set<string>();
  /** Indexes of the items among whose losses is a tool result let go. */
  private readonly toolResultItems = new Set<number>();
  private otherEntries = 0;

  constructor(private readonly names: RunNames) {}

  get count(): number {
    return this.items.length;
  }

  /** What the run let go so far: tool results (and how many of those losses were read again), and other entries. */
  get lost(): LostFigures {
    return {
      toolResults: this.toolResultsLost.size,
      toolResultsReadAgain: this.toolResultItems.size,
      otherEntries: this.otherEntries,
    };
  }

  /** The spawn's changes. */
  observeSpawn(changes: readonly Change[]): void {
    this.observeChanges(-1, changes);
  }

  observe(step: Pick<TimelineStep, 'index' | 'event' | 'changes' | 'result'>): void {
    if (step.event.type === 'tool_result') {
      const id = step.event.tool_call_id;
      if (step.result?.ok && !step.result.message.startsWith(STUB)) this.streamed.add(id);
      else this.streamed.delete(id);
    }
    if (step.changes.length) this.observeChanges(step.index, step.changes);
  }

  private observeChanges(step: number, changes: readonly Change[]): void {
    for (const [c, change] of changes.entries()) {
      if (change.region === HARNESS_CAP) continue;
      // A strip in the conversation leaves out calls whose results already left, which counted then.
      const strippedResults = change.type === 'strip' && change.region !== 'conversation';
      if (!LOSSES.has(change.type) && !strippedResults) continue;
      // The files of the tool results this change lets go (a truncate keeps its result, cut).
      let resultFiles: Set<string> | undefined;
      if (strippedResults) {
        for (const id of change.entries) if (this.streamed.has(id)) this.toolResultsLost.add(id);
      } else if (change.type !== 'truncate') {
        const ids = change.toolResults ?? [];
        for (const id of ids) this.toolResultsLost.add(id);
        this.otherEntries += change.entries.length - ids.length;
        if (ids.length) resultFiles = new Set(ids.flatMap((id) => this.names.pathsOfCall(id, step)));
      }
      // Each entry's names: a key, or the files a cut or stripped result's call named. A result
      // listed by its first line (a shell command's output has no key) is named by what its call read.
      const keys: string[] = [];
      const streamedKeys = new Set<string>();
      for (const label of change.entries) {
        const streamed = strippedResults && this.streamed.has(label);
        if (change.type === 'truncate' || streamed) {
          for (const path of this.names.pathsOfCall(label, step)) {
            keys.push(path);
            if (streamed) streamedKeys.add(path);
          }
        } else if (!strippedResults && this.names.isName(label)) keys.push(label);
      }
      if (resultFiles) for (const path of resultFiles) if (!change.entries.includes(path)) keys.push(path);
      for (const key of keys) {
        const ofResult = streamedKeys.has(key) || resultFiles?.has(key) === true;
        // A cascade and a strip happen as the step's request is made: its reply was written without them.
        const namedAt = this.names.nextNaming(key, step, change.type === 'cascade' || change.type === 'strip');
        if (namedAt === undefined) continue;
        const id = `${namedAt}\u0000${key}`;
        const known = this.seen.get(id);
        if (known !== undefined) {
          itemAt(this.items, known).losses.push({ step, change: c });
          if (ofResult) this.toolResultItems.add(known);
          continue;
        }
        if (ofResult) this.toolResultItems.add(this.items.length);
        this.seen.set(id, this.items.length);
        this.items.push({
          key,
          lostAt: step,
          namedAt,
          change: change.type,
          region: change.region,
          losses: [{ step, change: c }],
        });
      }
    }
  }
}

/** The timeline's read-again items and what it let go: the spawn's changes, then each step's. */
export function readAgainOf(
  names: RunNames,
  spawnChanges: readonly Change[],
  steps: readonly TimelineStep[],
): { items: ReadAgainItem[]; lost: LostFigures } {
  const counter = new ReadAgainCounter(names);
  counter.observeSpawn(spawnChanges);
  for (const step of steps) counter.observe(step);
  return { items: counter.items, lost: counter.lost };
}
