// How long a value's JSON is, at least, without writing it: JSON.stringify of a 50 MB imported trace
// is seconds of the page's thread, while these walks read only string lengths.

/**
 * A lower bound of `JSON.stringify(value).length`: its strings with their quotes, and its keys
 * with quotes and colon; numbers, escapes and punctuation are not counted. The walk stops once the
 * count passes `stopPast`, so a 50 MB scenario is turned down for a 2 MB limit as fast as a 2 MB one.
 */
export function jsonLengthAtLeast(value: unknown, stopPast = Infinity): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && length <= stopPast) {
    const v = pending.pop();
    if (typeof v === 'string') length += v.length + 2;
    else if (Array.isArray(v)) for (const item of v) pending.push(item);
    else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined || typeof item === 'function') continue;
        length += key.length + 3;
        pending.push(item);
      }
    }
  }
  return length;
}

/** Whether `value` as JSON is certainly longer than `limit` characters. */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  return jsonLengthAtLeast(value, limit) > limit;
}
