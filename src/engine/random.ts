// A small seeded PRNG (mulberry32): the same seed gives the same sequence on every engine, so a
// generator spec in a share link always reproduces the same traffic, and `lev advise --seed N`
// the same search.
import { itemAt } from './item-at.ts';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An index into `weights`, chosen in proportion to each weight. */
  weighted(weights: readonly number[]): number;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => itemAt(items, Math.floor(next() * items.length)),
    weighted: (weights) => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      let roll = next() * total;
      for (const [i, weight] of weights.entries()) {
        roll -= weight;
        if (roll < 0) return i;
      }
      // Float rounding can leave a sliver of `roll`; fall back to the last item that can be chosen.
      const last = weights.findLastIndex((w) => w > 0);
      return last >= 0 ? last : weights.length - 1;
    },
  };
}
