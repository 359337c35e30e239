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
