// decodeFragment on random strings: always { ok: false, error } with a sentence, never a throw.
import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeFragment, encodeScenario } from '../../src/share/index.ts';
import { toBase64Url } from '../../src/share/base64url.ts';
import { controlText, SEED } from './arbitraries.ts';
import { MAX_AGENT_FILES, MAX_LINK_CHARS } from '../../src/engine/limits.ts';
import { runs, tried } from './harness.ts';

const VALID = encodeScenario({
  version: 1,
  model: { id: 'gpt-4o' },
  agent: { 'agent.leviath': '[context.regions]\ntask = { kind = "pinned" }\n' },
});

function expectRefused(input: string): void {
  const result = tried(
    'share links',
    () => decodeFragment(input),
    (r) => !r.ok,
  );
  if (result.ok) return; // a mutation can land on another valid link; that is fine
  expect(result.error).toMatch(/^This link.+\.$/s);
}

describe('decodeFragment on random input', () => {
  it('random strings and URLs are refused with a message', () => {
    const input = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ maxLength: 200 }).map((s) => `https://example.com/play#s=${s}`),
      fc.string({ maxLength: 200 }).map((s) => `#s=1.${s}`),
      fc.nat().map((n) => `#s=${n}.abc`),
    );
    fc.assert(
      fc.property(input, (s) => {
        const result = tried(
          'share links',
          () => decodeFragment(s),
          (r) => !r.ok,
        );
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error).toMatch(/^This link.+\.$/s);
      }),
      { numRuns: runs(500), seed: SEED },
    );
  });

  it('random bytes, deflated or not, behind a well-formed prefix are refused with a message', () => {
    const payload = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => deflateSync(b)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => deflateSync(new TextEncoder().encode(JSON.stringify(v)))),
      fc
        .record({
          version: fc.constantFrom(1, 2, '1'),
          model: fc.jsonValue({ maxDepth: 2 }),
          agent: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
        })
        .map((v) => deflateSync(new TextEncoder().encode(JSON.stringify(v)))),
    );
    fc.assert(
      fc.property(payload, (bytes) => {
        const result = tried(
          'share links',
          () => decodeFragment(`#s=1.${toBase64Url(bytes)}`),
          (r) => !r.ok,
        );
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error).toMatch(/^This link.+\.$/s);
      }),
      { numRuns: runs(400), seed: SEED },
    );
  });

  it('a real link with characters cut, changed or added is refused (or still decodes), never throws', () => {
    const edit = fc.record({ at: fc.nat(), cut: fc.integer({ min: 0, max: 8 }), text: fc.string({ maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        expectRefused(
          edits.reduce((s, { at, cut, text }) => {
            const i = at % s.length;
            return s.slice(0, i) + text + s.slice(i + cut);
          }, VALID),
        );
      }),
      { numRuns: runs(400), seed: SEED },
    );
  });

  it('oversized links (past the length limit, too many agent files) and control characters in names are refused or decoded exactly, never throw', () => {
    const agent = (files: number) =>
      Object.fromEntries([
        ['agent.leviath', '[context.regions]\n'],
        ...Array.from({ length: files - 1 }, (_, i) => [`h${i}.rhai`, 'fn render(ctx) { "" }']),
      ]);
    const link = (name: string, files: number) =>
      `#s=1.${toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify({ version: 1, name, model: { id: 'gpt-4o' }, agent: agent(files) }))))}`;
    // The 10,000 files, built once: decoding it is the input, building it is not.
    const flood = { name: 'flood\u001b[2J', files: 10_000, link: link('flood\u001b[2J', 10_000) };
    const input = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .record({
            name: controlText,
            files: fc.oneof(
              fc.integer({ min: 1, max: 3 }),
              fc.integer({ min: MAX_AGENT_FILES - 2, max: MAX_AGENT_FILES + 2 }),
            ),
          })
          .map(({ name, files }) => ({ name, files, link: link(name, files) })),
      },
      { weight: 1, arbitrary: fc.constant(flood) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 1, max: 1_000 })
          .map((extra) => ({ name: undefined, files: 0, link: `#s=1.${'A'.repeat(MAX_LINK_CHARS + extra)}` })),
      },
    );
    fc.assert(
      fc.property(input, ({ name, files, link }) => {
        const result = tried(
          'share links',
          () => decodeFragment(link),
          (r) => !r.ok,
        );
        if (result.ok) {
          expect(files).toBeLessThanOrEqual(MAX_AGENT_FILES);
          expect(result.scenario.name).toBe(name);
        } else {
          expect(result.error).toMatch(/^This link.+\.$/s);
          if (name !== undefined) expect(files).toBeGreaterThan(MAX_AGENT_FILES);
        }
      }),
      { numRuns: runs(200), seed: SEED + 7 },
    );
  });
});
