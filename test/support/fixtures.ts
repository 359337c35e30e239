// Minimal typed blueprints for the support tests, built without the TOML compiler
// so these tests pin the runtime-support modules alone.
import type { Blueprint, RegionDecl, Seed } from '../../src/engine/blueprint/types.ts';

export function region(name: string, extra: Partial<RegionDecl> = {}): RegionDecl {
  return {
    name,
    kind: 'temporary',
    maxTokens: 5000,
    maxTokensExplicit: false,
    seedImplicit: false,
    required: false,
    requiredMessage: `Region ${name} is empty`,
    summarizable: true,
    admission: 'evict',
    loc: { file: 'agent.leviath', line: 1, column: 1 },
    ...extra,
  };
}

export function seeded(name: string, seed: Seed, extra: Partial<RegionDecl> = {}): RegionDecl {
  return region(name, { seed, ...extra });
}

export function blueprint(regions: RegionDecl[], extra: Partial<Blueprint> = {}): Blueprint {
  return { regions, stages: [], safeCommands: [], readPaths: [], security: { allowSeedCommands: true }, ...extra };
}
