// Shared helpers for the custom-region tests: the example hook scripts, a RegionContext for driving
// regions directly, and what their scenarios share.
import { readFileSync } from 'node:fs';
import type { RegionDecl } from '../../src/engine/blueprint/types.ts';
import type { Entry, RegionContext } from '../../src/engine/regions/types.ts';
import { summarize } from '../../src/engine/summarize.ts';
import { countTokens } from '../../src/engine/tokens.ts';

export function hookScript(name: string): string {
  return readFileSync(new URL(`../../src/scenarios/hooks/${name}.rhai`, import.meta.url), 'utf8');
}

export type TestContext = RegionContext & { warnings: string[]; windowTokens?: number };

export function testContext(extra: Partial<RegionContext> = {}): TestContext {
  let seq = 10_000;
  const warnings: string[] = [];
  return {
    encoding: 'o200k_base',
    nextSeq: () => seq++,
    summarize: (entries: readonly Entry[], label: string, at: number): Entry => {
      const content = summarize(entries, label);
      return {
        seq: at,
        content,
        tokens: countTokens(content),
        kind: 'summary',
        folded: { entries: entries.length, tokens: entries.reduce((s, e) => s + e.tokens, 0) },
      };
    },
    count: (text: string) => countTokens(text),
    stage: 'main',
    stageIterations: 1,
    model: 'claude-sonnet-4',
    window: 200_000,
    warn: (message: string) => warnings.push(message),
    warnings,
    ...extra,
  };
}

export function decl(name: string, extra: Partial<RegionDecl> = {}): RegionDecl {
  return {
    name,
    kind: 'custom',
    maxTokens: 5000,
    maxTokensExplicit: false,
    seedImplicit: false,
    required: false,
    requiredMessage: '',
    summarizable: true,
    admission: 'evict',
    loc: { file: 'agent.leviath', line: 1, column: 1 },
    ...extra,
  };
}

export function budgetOf(tokens: number) {
  return { budget: tokens, trigger: tokens };
}

let nextSeq = 0;
export function text(content: string, extra: Partial<Entry> = {}): Entry {
  return { seq: nextSeq++, content, tokens: countTokens(content), kind: 'text', ...extra };
}

export function toolResult(id: string, content: string, extra: Partial<Entry> = {}): Entry {
  return text(content, { kind: 'tool_result', toolCallId: id, toolName: 'shell', ...extra });
}

/** What the custom-region tests' scenarios share (test/builders.ts writes the rest): Claude's 200,000-token window. */
export const CUSTOM_TEST = { name: 'custom-test', model: { id: 'claude-sonnet-4' } } as const;
