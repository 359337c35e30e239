// Shared by the blueprint tests: compile a TOML string and look at what came out.
import { expect } from 'vitest';
import { compileBlueprint, type Blueprint, type CompileOptions } from '../../src/engine/blueprint/index.ts';
import type { Diagnostic } from '../../src/engine/diagnostics.ts';
import { checkCustomScript } from '../../src/engine/custom-script.ts';

/** With the Rhai interpreter's script check (as `lev validate` runs it) unless `options` brings another. */
export function compile(toml: string, extra: Record<string, string> = {}, options: CompileOptions = {}) {
  return compileBlueprint({ 'agent.leviath': toml, ...extra }, { checkScript: checkCustomScript, ...options });
}

/** The blueprint, asserting there is one. */
export function blueprintOf(toml: string, extra: Record<string, string> = {}, options: CompileOptions = {}): Blueprint {
  const result = compile(toml, extra, options);
  expect(result.blueprint, JSON.stringify(result.diagnostics)).toBeDefined();
  return result.blueprint!;
}

/** Diagnostics with one code. */
export function withCode(
  toml: string,
  code: string,
  extra: Record<string, string> = {},
  options: CompileOptions = {},
): Diagnostic[] {
  return compile(toml, extra, options).diagnostics.filter((d) => d.code === code);
}

/** The single diagnostic with this code, as `{severity, line, column, path}` plus its message. */
export function only(
  toml: string,
  code: string,
  extra: Record<string, string> = {},
  options: CompileOptions = {},
): Diagnostic {
  const found = withCode(toml, code, extra, options);
  expect(
    found,
    `expected exactly one ${code}; got ${JSON.stringify(compile(toml, extra, options).diagnostics)}`,
  ).toHaveLength(1);
  return found[0]!;
}

/** `code severity line:column path` for compact whole-list assertions. */
export function summary(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code} ${d.severity} ${d.line}:${d.column} ${d.path}`);
}

/** A region named task so task-not-seeded stays quiet in tests about other rules. */
export const TASK = 'task = { kind = "pinned" }\n';
