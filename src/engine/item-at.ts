// The item at an index the code has bounded itself (a loop's `i < length`, a length checked just
// above, a binary search's range), where `noUncheckedIndexedAccess` cannot see the bound. Past the
// end it throws, naming the index, rather than letting `undefined` pass as an item.
export function itemAt<T>(items: ArrayLike<T>, index: number): T {
  if (index >= 0 && index < items.length) return items[index] as T;
  throw new RangeError(`index ${index} is outside the ${items.length} items`);
}
