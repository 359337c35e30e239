// Remembers replays that failed, timed out or never finished (the tab crashed or hung), so a
// reload does not run the same scenario straight into the same wall: it opens it marked out of
// date with a Run button. Kept in localStorage (synchronous, read before the first replay); a
// PageSession makes one guard over the storage its host gives it.
import type { Scenario } from '../engine/page.ts';

export const REPLAY_GUARD_KEY = 'leviath.replays.v1';
/** Only the most recent few scenarios are remembered. */
const MAX_REMEMBERED = 20;

type Mark = { state: 'running' | 'failed'; message: string; at: number };
type Marks = Record<string, Mark>;

/** FNV-1a (32-bit) over the scenario's content: a short, stable key for "this exact scenario". */
export function fingerprint(scenario: Scenario): string {
  return hashContent(scenario);
}

/**
 * The hash of `contentKey(value)` (JSON with sorted keys) and its length, fed piece by piece as the
 * value is walked instead of building that string, which for a large imported trace is a long task of
 * its own (docs/performance.md). Marks stored by either agree.
 */
export function hashContent(value: unknown): string {
  let hash = 0x811c9dc5;
  let length = 0;
  const feed = (text: string) => {
    hash = fnv1a(hash, text);
    length += text.length;
  };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      feed('[');
      v.forEach((item, i) => {
        if (i > 0) feed(',');
        if (isSkippedInJson(item)) feed('null');
        else walk(item);
      });
      feed(']');
    } else if (v !== null && typeof v === 'object') {
      feed('{');
      let first = true;
      for (const key of Object.keys(v).sort(inContentKeyOrder)) {
        const item = (v as Record<string, unknown>)[key];
        if (isSkippedInJson(item)) continue;
        feed(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        walk(item);
      }
      feed('}');
    } else {
      feed(JSON.stringify(v));
    }
  };
  walk(value);
  return `${(hash >>> 0).toString(16).padStart(8, '0')}-${length.toString(36)}`;
}

function fnv1a(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isSkippedInJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * contentKey's key order: sorted by code units, then rebuilt as an object, which puts array-index
 * keys ("0", "12") first in numeric order, as every JS object does.
 */
function inContentKeyOrder(a: string, b: string): number {
  const ia = arrayIndex(a);
  const ib = arrayIndex(b);
  if (ia !== null || ib !== null) return ia === null ? 1 : ib === null ? -1 : ia - ib;
  return a < b ? -1 : a > b ? 1 : 0;
}

function arrayIndex(key: string): number | null {
  if (!/^(0|[1-9][0-9]{0,9})$/.test(key)) return null;
  const n = Number(key);
  return n < 2 ** 32 - 1 ? n : null;
}

export interface ReplayGuard {
  started: (scenario: Scenario) => void;
  /** Forgets the scenario: its replay ended (or was superseded) without failing. */
  finished: (scenario: Scenario) => void;
  failed: (scenario: Scenario, message: string) => void;
  /** Forgets replays still running: the page is going away normally (pagehide). */
  leaving: () => void;
  /** Why this scenario should not be replayed automatically, or null. */
  heldReason: (scenario: Scenario) => string | null;
}

export function createReplayGuard(storage: Pick<Storage, 'getItem' | 'setItem'> | null, now = Date.now): ReplayGuard {
  // Scenarios are replaced, never changed in place, so a fingerprint holds for the object's life; a
  // replay's start and end both ask, and each pass over a large import's text is a long task.
  const fingerprints = new WeakMap<Scenario, string>();
  const fingerprintOf = (scenario: Scenario): string => {
    let known = fingerprints.get(scenario);
    if (known === undefined) {
      known = fingerprint(scenario);
      fingerprints.set(scenario, known);
    }
    return known;
  };
  const read = (): Marks => {
    try {
      const value: unknown = JSON.parse(storage?.getItem(REPLAY_GUARD_KEY) ?? '{}');
      return value && typeof value === 'object' ? (value as Marks) : {};
    } catch {
      return {};
    }
  };
  const write = (marks: Marks) => {
    const kept = Object.entries(marks)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, MAX_REMEMBERED);
    try {
      storage?.setItem(REPLAY_GUARD_KEY, JSON.stringify(Object.fromEntries(kept)));
    } catch {
      // Without storage the guard only forgets; replays still run.
    }
  };
  const set = (scenario: Scenario, mark: Mark | null) => {
    const marks = read();
    const key = fingerprintOf(scenario);
    if (mark) marks[key] = mark;
    else delete marks[key];
    write(marks);
  };
  return {
    started: (scenario) =>
      set(scenario, { state: 'running', message: 'the page closed or crashed before it finished', at: now() }),
    finished: (scenario) => set(scenario, null),
    failed: (scenario, message) => set(scenario, { state: 'failed', message, at: now() }),
    leaving: () => write(Object.fromEntries(Object.entries(read()).filter(([, m]) => m.state !== 'running'))),
    heldReason: (scenario) => read()[fingerprintOf(scenario)]?.message ?? null,
  };
}
