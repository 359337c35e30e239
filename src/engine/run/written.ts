// How a run words what a write left in its region, for the result a tool call or context_append
// returns: the size the region kept, what a custom region's on_write did to it, or why the region's
// own rule took it out again at once. One wording, so a routed stub, a result in the message stream
// and context_append's answer never disagree with each other or with the region.
import { fmt } from '../format.ts';
import type { Gone, WriteOutcome } from '../regions/types.ts';

type Kept = Extract<WriteOutcome, { ok: true }>;

/**
 * `2 tokens (on_write rewrote 15)`: the size kept of an entry of `tokens`. A routed stub, which
 * every later request carries, leaves the rewrite out (`brief`): its size is the truth on its own,
 * where 0 tokens is not (dropped, or kept empty?), so those two always say which.
 */
export function keptSize(tokens: number, outcome: Kept, brief = false): string {
  const stored = outcome.stored;
  if (outcome.hookDropped) return `0 tokens (on_write dropped the ${fmt(tokens)}-token entry)`;
  if (stored === undefined || stored === tokens) return `${fmt(tokens)} tokens`;
  if (stored === 0) return `0 tokens (on_write emptied the ${fmt(tokens)}-token entry)`;
  return brief ? `${fmt(stored)} tokens` : `${fmt(stored)} tokens (on_write rewrote ${fmt(tokens)})`;
}

/** `scratch dropped this result: 500 tokens, larger than the region's whole budget of 300`. */
export function goneText(subject: string, object: string, tokens: number, gone: Gone): string {
  const atOnce = gone.verb === 'dropped' ? '' : ' at once';
  return `${subject} ${gone.verb} ${object}${atOnce}: ${fmt(tokens)} tokens, ${gone.why}`;
}
