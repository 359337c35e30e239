// "Copy as Markdown": the link and a small table of what the timeline did, for an issue or a chat.
import { type Timeline, fmt } from '../engine/page.ts';

const n = (value: number) => fmt(Math.round(value));

/**
 * A name from the scenario as inert Markdown text, shown as written: the characters that make
 * links, images, raw HTML, entities, code spans, emphasis, strikethrough and table cells are
 * backslash-escaped (CommonMark lets any ASCII punctuation be), and line breaks and other control
 * characters become spaces, so a shared scenario's name cannot retarget the link, add a remote
 * image or start a new line of the table.
 */
export function markdownText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/[\\[\]()!<>|`*_~&]/g, '\\$&');
}

export interface RegionRow {
  region: string;
  kind: string;
  budget: number;
  finalTokens: number;
  evictions: number;
  evictedTokens: number;
}

/** One row per region: budget, tokens after the last step, and what its own rules evicted. */
export function regionRows(timeline: Timeline): RegionRow[] {
  const last = timeline.steps.at(-1)?.regions ?? timeline.spawn.regions;
  // One pass over the run's changes (the engine worker gathers this on every replay).
  const evicted = new Map<string, { evictions: number; evictedTokens: number }>();
  for (const step of timeline.steps) {
    for (const change of step.changes) {
      if (change.type !== 'evict') continue;
      const sum = evicted.get(change.region) ?? { evictions: 0, evictedTokens: 0 };
      sum.evictions++;
      sum.evictedTokens += change.tokens;
      evicted.set(change.region, sum);
    }
  }
  return timeline.regions.map((meta) => ({
    region: meta.name,
    kind: meta.kind,
    budget: last[meta.name]?.budget ?? meta.budget,
    finalTokens: last[meta.name]?.tokens ?? 0,
    ...(evicted.get(meta.name) ?? { evictions: 0, evictedTokens: 0 }),
  }));
}

/** What the Markdown says about a run, gathered where the run is (the engine worker). */
export interface MarkdownFacts {
  steps: number;
  inferences: number;
  modelId: string;
  meanPrefixShare: number;
  rows: RegionRow[];
  lastRequest: { prefixTokens: number; requestTokens: number } | null;
}

export function scenarioMarkdown(name: string, url: string, facts: MarkdownFacts): string {
  const { lastRequest } = facts;
  const lines = [
    `[${markdownText(name)}](${url}) — ${n(facts.steps)} steps, ${n(facts.inferences)} inferences on ${facts.modelId}`,
    '',
    '| Region | Kind | Budget | Final tokens | Evictions |',
    '|---|---|--:|--:|--:|',
    ...facts.rows.map(
      (r) =>
        `| ${markdownText(r.region)} | ${r.kind} | ${n(r.budget)} | ${n(r.finalTokens)} | ${r.evictions === 0 ? '0' : `${n(r.evictions)} (${n(r.evictedTokens)} tokens)`} |`,
    ),
    '',
    `Cache prefix: ${Math.round(facts.meanPrefixShare * 100)}% of each request on average was identical to the previous one` +
      (lastRequest ? `; last request ${n(lastRequest.prefixTokens)} of ${n(lastRequest.requestTokens)} tokens.` : '.'),
  ];
  return `${lines.join('\n')}\n`;
}
