// Engine limits (src/api/limits.rs). 0 means unlimited, as in Rhai.
export interface RhaiLimits {
  maxOperations?: number;
  maxCallDepth?: number;
  maxStringSize?: number;
  maxArraySize?: number;
  maxMapSize?: number;
  maxExprDepth?: number;
  maxFunctionExprDepth?: number;
}

/** Rhai's release-build defaults. */
export const DEFAULT_LIMITS: Required<RhaiLimits> = {
  maxOperations: 0,
  maxCallDepth: 64,
  maxStringSize: 0,
  maxArraySize: 0,
  maxMapSize: 0,
  maxExprDepth: 64,
  maxFunctionExprDepth: 32,
};

/**
 * The playground's limits, the same for a custom region's hook on the page and for `lev rhai`:
 * a runaway script (`loop {}`, doubling a string, pushing forever) stops with a Rhai error in
 * well under a second instead of hanging or exhausting memory.
 */
export const PLAYGROUND_LIMITS: Required<RhaiLimits> = {
  maxOperations: 1_000_000,
  maxCallDepth: 64,
  maxStringSize: 10_000_000,
  maxArraySize: 1_000_000,
  maxMapSize: 100_000,
  maxExprDepth: 64,
  maxFunctionExprDepth: 32,
};

/** What each limit means, in `lev rhai --help` order. */
export const LIMIT_DESCRIPTIONS: Record<keyof RhaiLimits, string> = {
  maxOperations: 'operations per run: statements, loop iterations, calls',
  maxCallDepth: 'nested function calls',
  maxExprDepth: 'expression nesting at the top level',
  maxFunctionExprDepth: 'expression nesting inside functions',
  maxStringSize: 'characters in one string',
  maxArraySize: 'items in an array, nested arrays counted at every depth',
  maxMapSize: 'entries in an object map, counted at every depth',
};

export function resolveLimits(...layers: (RhaiLimits | undefined)[]): Required<RhaiLimits> {
  const out = { ...DEFAULT_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(out) as (keyof RhaiLimits)[]) {
      const v = layer[key];
      if (v !== undefined) {
        if (!Number.isFinite(v) || v < 0)
          throw new RangeError(`Rhai limit ${key} must be a non-negative number, got ${v}`);
        out[key] = Math.floor(v);
      }
    }
  }
  return out;
}
