// How the engine writes numbers in messages: 12,345 (a leaf module, so anything may import it).
//
// Integers are grouped here rather than by toLocaleString: the first use of Intl on a page costs
// 20 to 35 ms (ICU's locale data), in whichever task first formats a number. Other numbers (rare
// in messages) still go to toLocaleString.
export function fmt(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/**
 * What a blueprint's rules let go, as the verdict says it (issue 29): "38 tool results evicted (3 of
 * them read again later)", then the other entries when there are any. The page and `lev replay`
 * both say it with this (the figures: `TimelineSummary.lost`, read-again.ts).
 */
export function lostInWords(lost: { toolResults: number; toolResultsReadAgain: number; otherEntries: number }): string {
  const results = `${fmt(lost.toolResults)} tool result${lost.toolResults === 1 ? '' : 's'} evicted (${fmt(lost.toolResultsReadAgain)} of them read again later)`;
  if (lost.otherEntries === 0) return results;
  return `${results}, ${fmt(lost.otherEntries)} other entr${lost.otherEntries === 1 ? 'y' : 'ies'} let go`;
}
