// What fills the window at one step, as Claude Code's `/context` shows it: every region, the
// harness's own overhead where it is known, the room regions may still fill, and the headroom left
// for the reply, each as tokens and as a share of the window. The breakdown is a function of what a
// request holds, so any request can feed it: the blueprint's (an inspected step), the flat-list
// baseline's, and the run as it was sent once a scenario records it.
import type { RegionKind } from './blueprint/types.ts';
import type { StepDetail } from './timeline.ts';

/**
 * What the harness sends that no region holds: its system prompt and its tool definitions. A session
 * file does not carry them, so for an imported run they are estimated from its recorded usage (the
 * as-sent replay's calibration learns one figure for both: one part), or known part by part where a
 * trace holds the request bodies; a generated scenario has none.
 */
export interface HarnessOverhead {
  /** Each part as its own row: `harness system prompt`, `harness tool definitions`, or one for both. */
  parts: { name: string; tokens: number }[];
  /** How the figures are known, in words ("estimated from the recorded usage of calls 0-3"). */
  source: string;
}

export type BreakdownRowKind = 'region' | 'messages' | 'overhead' | 'free' | 'headroom';

export interface BreakdownRow {
  name: string;
  kind: BreakdownRowKind;
  tokens: number;
  /** tokens / window. */
  share: number;
  /** A region's resolved budget. */
  budget?: number;
  regionKind?: RegionKind;
}

export interface WindowBreakdown {
  window: number;
  /** What the request holds: its regions (or messages) and the harness overhead. */
  usedTokens: number;
  /**
   * In window order: what the request holds, then `free` (room the regions' budgets still allow)
   * and `headroom` (what no budget covers: left for the reply). Used + free + headroom = window,
   * unless the request is over it.
   */
  rows: BreakdownRow[];
  /** The overhead row's source, or null when the scenario does not say what the harness adds. */
  overhead: HarnessOverhead | null;
  overWindow: boolean;
}

/** One part of what a request holds. `budget` is what it may grow to (undefined: no limit of its own). */
export interface WindowPart {
  name: string;
  kind: 'region' | 'messages';
  tokens: number;
  budget?: number;
  regionKind?: RegionKind;
}

const share = (tokens: number, window: number): number => (window > 0 ? tokens / window : 0);

/**
 * The window, part by part. Parts with a budget may still grow to it (the `free` row); what no
 * budget covers is the reply's headroom. A part without a budget (a flat list) may fill the whole
 * window, so it leaves no headroom: everything it does not hold is free.
 */
export function breakdown(window: number, parts: readonly WindowPart[], overhead?: HarnessOverhead): WindowBreakdown {
  const rows: BreakdownRow[] = parts.map((p) => {
    const row: BreakdownRow = { name: p.name, kind: p.kind, tokens: p.tokens, share: share(p.tokens, window) };
    if (p.budget !== undefined) row.budget = p.budget;
    if (p.regionKind !== undefined) row.regionKind = p.regionKind;
    return row;
  });
  const harness = overhead?.parts ?? [];
  for (const { name, tokens } of harness) rows.push({ name, kind: 'overhead', tokens, share: share(tokens, window) });
  const overheadTokens = harness.reduce((sum, part) => sum + part.tokens, 0);
  const usedTokens = parts.reduce((sum, p) => sum + p.tokens, 0) + overheadTokens;
  const free = Math.max(0, window - usedTokens);
  // A part over its budget (a pinned region) reaches as far as it holds.
  const reach = parts.some((p) => p.budget === undefined)
    ? Infinity
    : parts.reduce((sum, p) => sum + Math.max(p.budget!, p.tokens), 0) + overheadTokens;
  const headroom = Math.min(free, Math.max(0, window - reach));
  rows.push({ name: 'free space', kind: 'free', tokens: free - headroom, share: share(free - headroom, window) });
  rows.push({ name: 'reply headroom', kind: 'headroom', tokens: headroom, share: share(headroom, window) });
  return { window, usedTokens, rows, overhead: overhead ?? null, overWindow: usedTokens > window };
}

/**
 * The parts of an inspected step's request, one per region the stage shows, in the request's order
 * (system blocks, then message regions by first message), with the tokens the request spends on each
 * (a system block's header and line breaks included) and the region's budget. Regions the stage
 * shows but the request leaves empty are listed with 0.
 */
export function requestParts(detail: StepDetail): WindowPart[] {
  const spent = new Map<string, number>();
  for (const block of detail.request.system) spent.set(block.region, (spent.get(block.region) ?? 0) + block.tokens);
  for (const message of detail.request.messages)
    spent.set(message.region, (spent.get(message.region) ?? 0) + message.tokens);
  const visible = (name: string, fallback: boolean) => detail.requestRegions?.[name]?.visible ?? fallback;
  const shown = detail.regions.filter((r) => visible(r.name, r.visible));
  const order = [...spent.keys(), ...shown.map((r) => r.name).filter((name) => !spent.has(name))];
  const byName = new Map(detail.regions.map((r) => [r.name, r]));
  return order.map((name) => {
    const region = byName.get(name);
    const part: WindowPart = { name, kind: 'region', tokens: spent.get(name) ?? 0 };
    if (region) {
      part.budget = region.budget;
      part.regionKind = region.kind;
    }
    return part;
  });
}

/** The blueprint's window at an inspected step. */
export function blueprintBreakdown(detail: StepDetail, window: number, overhead?: HarnessOverhead): WindowBreakdown {
  return breakdown(window, requestParts(detail), overhead);
}

/**
 * The flat-list baseline's window at an inspected inference: one list (the stage prompt, the task and
 * every turn since) that fills the window before it drops anything. It stands in for the run as it
 * was sent until a scenario records that run.
 */
export function flatListBreakdown(
  detail: StepDetail,
  window: number,
  overhead?: HarnessOverhead,
): WindowBreakdown | undefined {
  if (detail.baselineTokens === undefined) return undefined;
  return breakdown(window, [{ name: 'flat message list', kind: 'messages', tokens: detail.baselineTokens }], overhead);
}
