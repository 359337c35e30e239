// Built-in models with their real context windows and tokenizers.
// Models without a public tokenizer are counted with o200k_base and flagged `approximate`.
import type { Encoding } from './tokens.ts';
import type { ModelRef } from './scenario.ts';
import { fmt } from './format.ts';

export type Provider = 'openai' | 'anthropic' | 'google' | 'custom';

export interface Model {
  id: string;
  label: string;
  provider: Provider;
  /** Context window in tokens. */
  window: number;
  encoding: Encoding;
  /** True when `encoding` is a stand-in for a tokenizer that is not public. */
  approximate: boolean;
}

const openai = (id: string, label: string, window: number, encoding: Encoding = 'o200k_base'): Model => ({
  id,
  label,
  provider: 'openai',
  window,
  encoding,
  approximate: false,
});
const stand_in = (provider: Provider, id: string, label: string, window: number): Model => ({
  id,
  label,
  provider,
  window,
  encoding: 'o200k_base',
  approximate: true,
});

// Windows as published by each provider (checked 2026-12).
export const MODELS: readonly Model[] = [
  openai('gpt-4o', 'GPT-4o', 128_000),
  openai('gpt-4o-mini', 'GPT-4o mini', 128_000),
  openai('gpt-4.1', 'GPT-4.1', 1_047_576),
  openai('gpt-5', 'GPT-5', 400_000),
  openai('o3', 'o3', 200_000),
  openai('o4-mini', 'o4-mini', 200_000),
  openai('gpt-4-turbo', 'GPT-4 Turbo', 128_000, 'cl100k_base'),
  openai('gpt-3.5-turbo', 'GPT-3.5 Turbo', 16_385, 'cl100k_base'),
  stand_in('anthropic', 'claude-sonnet-4', 'Claude Sonnet 4', 200_000),
  stand_in('anthropic', 'claude-opus-4', 'Claude Opus 4', 200_000),
  stand_in('anthropic', 'claude-3-5-haiku', 'Claude 3.5 Haiku', 200_000),
  stand_in('google', 'gemini-2.5-pro', 'Gemini 2.5 Pro', 1_048_576),
  stand_in('google', 'gemini-2.5-flash', 'Gemini 2.5 Flash', 1_048_576),
];

export const DEFAULT_MODEL_ID = 'claude-sonnet-4';

export function findModel(id: string): Model | undefined {
  return MODELS.find((m) => m.id === id);
}

export type ModelResult = { ok: true; model: Model } | { ok: false; error: string };

/** A scenario's `model`: a built-in id, or a custom window (with an optional encoding). */
export function resolveModel(ref: ModelRef): ModelResult {
  if ('window' in ref) {
    // A built-in model run with another window (an imported run records the window it had, such as
    // Codex's 258,400 of gpt-5's 400,000): that model's tokenizer, provider and cache rules.
    const builtIn = ref.id === undefined ? undefined : findModel(ref.id);
    if (builtIn)
      return {
        ok: true,
        model: { ...builtIn, label: `${builtIn.label} (${fmt(ref.window)}-token window)`, window: ref.window },
      };
    const id = ref.id ?? `custom-${ref.window}`;
    const encoding = ref.encoding ?? 'o200k_base';
    return {
      ok: true,
      model: {
        id,
        label: `Custom (${fmt(ref.window)} tokens)`,
        provider: 'custom',
        window: ref.window,
        encoding,
        approximate: false,
      },
    };
  }
  const model = findModel(ref.id);
  if (model) return { ok: true, model };
  const known = MODELS.map((m) => m.id).join(', ');
  return {
    ok: false,
    error: `unknown model "${ref.id}": use one of ${known}, or give { "window": N, "encoding": "o200k_base" }`,
  };
}

const UNPUBLISHED: Partial<Record<Provider, string>> = {
  anthropic: "Anthropic does not publish Claude's tokenizer",
  google: "Google does not publish Gemini's tokenizer",
};

/**
 * What a count or a token view in `encoding` is for the model `id`: undefined when it is the
 * model's own tokenizer, else a sentence saying it is approximate and why.
 */
export function approximateNote(id: string, encoding: Encoding, approximate: boolean): string | undefined {
  if (!approximate) return undefined;
  const why = UNPUBLISHED[findModel(id)?.provider ?? 'custom'] ?? "this model's tokenizer is not public";
  return `Approximate: ${why}; these are ${encoding}'s tokens, not the model's own.`;
}
