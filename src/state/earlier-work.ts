// The work earlier versions of the page kept in localStorage, one scenario per key, before the
// library existed: a PageSession moves it into the library once on load, then removes the keys.
import { ScenarioSchema, type Scenario } from '../engine/page.ts';

/** Where the page kept the person's work before the library existed. */
export const EARLIER_WORK_KEYS = ['leviath.work.v1', 'leviath.backup.v1'] as const;

/** The earlier page's saved work and backup that still parse as scenarios. */
export function loadEarlierWork(storage: Pick<Storage, 'getItem'> | null): Scenario[] {
  const found: Scenario[] = [];
  for (const key of EARLIER_WORK_KEYS) {
    try {
      const parsed = ScenarioSchema.safeParse(JSON.parse(storage?.getItem(key) ?? 'null'));
      if (parsed.success) found.push(parsed.data);
    } catch {
      // Unreadable (refused storage, not JSON): there is nothing to keep.
    }
  }
  return found;
}

/** Called once the earlier work is in the library. */
export function forgetEarlierWork(storage: Pick<Storage, 'removeItem'> | null): void {
  try {
    for (const key of EARLIER_WORK_KEYS) storage?.removeItem(key);
  } catch {
    // Storage refused: the keys were not readable either.
  }
}
