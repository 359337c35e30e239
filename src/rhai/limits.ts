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

export function resolveLimits(...layers: (RhaiLimits | undefined)[]): Required<RhaiLimits> {
  const out = { ...DEFAULT_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(out) as (keyof RhaiLimits)[]) {
      const v = layer[key];
      if (v !== undefined) {
        if (!Number.isFinite(v) || v < 0) throw new RangeError(`Rhai limit ${key} must be a non-negative number, got ${v}`);
        out[key] = Math.floor(v);
      }
    }
  }
  return out;
}
