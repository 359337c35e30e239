// importTrace on damaged traces: the real fixtures of every format with characters, lines or JSON
// values changed, random message lists and random bytes. Each ends in a scenario the schema accepts
// or an ImportError (the message `lev import` and the page show), never another throw.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError, importTrace } from '../../src/import/index.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { CONTROL, SEED } from './arbitraries.ts';
import { EncodingError } from '../../src/import/utf8.ts';
import { runs, tried } from './harness.ts';

const read = (name: string) => readFileSync(new URL(`../import/fixtures/${name}`, import.meta.url), 'utf8');
const JSON_FIXTURES = [
  'anthropic-messages.json',
  'anthropic-request.json',
  'anthropic-response.json',
  'openai-chat.json',
  'openai-responses.json',
  'real/swe-agent-function-calling.traj',
  'real/mini-swe-agent-github-issue.traj.json',
  'real/openhands-wrong-initial-state.json',
].map(read);
const JSONL_FIXTURES = ['claude-code-session.jsonl', 'rollout-2026-11-30T10-01-00-0199a8f2.jsonl'].map(read);
const FIXTURES = [...JSON_FIXTURES, ...JSONL_FIXTURES];

/** 'ok' with a valid scenario, or 'error' for an ImportError with a message; anything else fails. */
function importOrRefuse(source: string | Uint8Array): 'ok' | 'error' {
  try {
    const { scenario } = importTrace(source);
    const parsed = ScenarioSchema.safeParse(scenario);
    expect(parsed.success, parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')).toBe(true);
    return 'ok';
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
    return 'error';
  }
}

const imported = (source: string | Uint8Array) => tried('imported traces', () => importOrRefuse(source));

const fixture = fc.constantFrom(...FIXTURES);
const edit = fc.record({
  at: fc.nat(),
  cut: fc.integer({ min: 0, max: 40 }),
  text: fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('"', '{', '}', '[', ']', ',', '\n', 'null', '\\u0000', '\ud800', ...CONTROL),
  ),
});

/** A fixture with characters cut, changed or added. */
const editedText = fc.tuple(fixture, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([text, edits]) =>
  edits.reduce((s, { at, cut, text: add }) => {
    const i = at % (s.length || 1);
    return s.slice(0, i) + add + s.slice(i + cut);
  }, text),
);

/** A JSONL fixture with lines dropped, repeated or swapped. */
const shuffledLines = fc
  .tuple(fc.constantFrom(...JSONL_FIXTURES), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }))
  .map(([text, picks]) => {
    const lines = text.split('\n');
    return picks.map((p) => lines[p % lines.length]).join('\n');
  });

/** Every value's path in a JSON document. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...at, Array.isArray(value) ? Number(k) : k], out);
  return out;
}

/** A JSON fixture with one value anywhere in it replaced by a random JSON value. */
const replacedValue = fc
  .tuple(fc.constantFrom(...JSON_FIXTURES), fc.nat(), fc.jsonValue({ maxDepth: 3 }))
  .map(([text, pick, replacement]) => {
    const doc = JSON.parse(text) as unknown;
    const all = paths(doc).slice(1);
    const path = all[pick % all.length]!;
    let parent = doc as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path.at(-1)!] = replacement;
    return JSON.stringify(doc);
  });

const ROLES = ['user', 'assistant', 'system', 'developer', 'tool', 'function', 'toString', '__proto__'];
const randomMessages = fc
  .array(
    fc.record(
      {
        role: fc.oneof(fc.constantFrom(...ROLES), fc.string({ maxLength: 8 })),
        content: fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.array(
            fc.record(
              { type: fc.constantFrom('text', 'tool_use', 'tool_result', 'image'), text: fc.string() },
              { requiredKeys: ['type'] },
            ),
            { maxLength: 3 },
          ),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 12 },
  )
  .map((messages) => JSON.stringify(messages));

describe('importTrace on damaged and random traces', () => {
  it('fixtures of every format with characters cut, changed or added', () => {
    fc.assert(
      fc.property(editedText, (text) => {
        imported(text);
      }),
      { numRuns: runs(300), seed: SEED },
    );
  });

  it('JSONL sessions with lines dropped, repeated or swapped', () => {
    fc.assert(
      fc.property(shuffledLines, (text) => {
        imported(text);
      }),
      { numRuns: runs(200), seed: SEED + 1 },
    );
  });

  it('JSON bodies with one value replaced by random JSON', () => {
    fc.assert(
      fc.property(replacedValue, (text) => {
        imported(text);
      }),
      { numRuns: runs(300), seed: SEED + 2 },
    );
  });

  it('random message lists and random bytes', () => {
    const input = fc.oneof(
      randomMessages,
      fc.uint8Array({ maxLength: 400 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    fc.assert(
      fc.property(input, (source) => {
        imported(source);
      }),
      { numRuns: runs(300), seed: SEED + 3 },
    );
  });

  it('every fixture imports as it is', () => {
    for (const text of FIXTURES) expect(importOrRefuse(text)).toBe('ok');
  });

  it("fixtures saved as UTF-16 or UTF-32, with or without a byte-order mark, are refused as such (a text editor's other encodings)", () => {
    const utf32le = (text: string): Buffer => {
      const out = Buffer.alloc(text.length * 4);
      let at = 0;
      for (const c of text) {
        out.writeUInt32LE(c.codePointAt(0)!, at);
        at += 4;
      }
      return out.subarray(0, at);
    };
    const encode = (text: string, encoding: string, bom: boolean): Uint8Array => {
      const body =
        encoding === 'UTF-16LE'
          ? Buffer.from(text, 'utf16le')
          : encoding === 'UTF-16BE'
            ? Buffer.from(text, 'utf16le').swap16()
            : encoding === 'UTF-32LE'
              ? utf32le(text)
              : utf32le(text).swap32();
      const mark = {
        'UTF-16LE': [0xff, 0xfe],
        'UTF-16BE': [0xfe, 0xff],
        'UTF-32LE': [0xff, 0xfe, 0, 0],
        'UTF-32BE': [0, 0, 0xfe, 0xff],
      }[encoding]!;
      return bom ? Buffer.concat([Buffer.from(mark), body]) : body;
    };
    const input = fc.tuple(editedText, fc.constantFrom('UTF-16LE', 'UTF-16BE', 'UTF-32LE', 'UTF-32BE'), fc.boolean());
    fc.assert(
      fc.property(input, ([text, encoding, bom]) => {
        const bytes = encode(text, encoding, bom);
        // A few characters are too few to judge by their zero bytes; the mark always tells.
        if (!bom && text.length < 8) return;
        const refused = tried('imported traces', () => {
          try {
            importTrace(bytes);
            return 'ok';
          } catch (error) {
            if (!(error instanceof EncodingError)) throw error;
            expect(error.found.encoding).toBe(encoding);
            return 'error';
          }
        });
        expect(refused).toBe('error');
      }),
      { numRuns: runs(200), seed: SEED + 4 },
    );
  });
});
