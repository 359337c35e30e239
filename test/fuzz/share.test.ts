// decodeFragment on random strings: always { ok: false, error } with a sentence, never a throw.
import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeFragment, encodeScenario } from '../../src/share/index.ts';
import { toBase64Url } from '../../src/share/base64url.ts';
import { SEED } from './arbitraries.ts';
import { runs, tried } from './harness.ts';

const VALID = encodeScenario({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '[context.regions]\ntask = { kind = "pinned" }\n' } });

function expectRefused(input: string): void {
  const result = tried('share links', () => decodeFragment(input), (r) => !r.ok);
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
    fc.assert(fc.property(input, (s) => {
      const result = tried('share links', () => decodeFragment(s), (r) => !r.ok);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^This link.+\.$/s);
    }), { numRuns: runs(500), seed: SEED });
  });

  it('random bytes, deflated or not, behind a well-formed prefix are refused with a message', () => {
    const payload = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => deflateSync(b)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => deflateSync(new TextEncoder().encode(JSON.stringify(v)))),
      fc.record({ version: fc.constantFrom(1, 2, '1'), model: fc.jsonValue({ maxDepth: 2 }), agent: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })) })
        .map((v) => deflateSync(new TextEncoder().encode(JSON.stringify(v)))),
    );
    fc.assert(fc.property(payload, (bytes) => {
      const result = tried('share links', () => decodeFragment(`#s=1.${toBase64Url(bytes)}`), (r) => !r.ok);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^This link.+\.$/s);
    }), { numRuns: runs(400), seed: SEED });
  });

  it('a real link with characters cut, changed or added is refused (or still decodes), never throws', () => {
    const edit = fc.record({ at: fc.nat(), cut: fc.integer({ min: 0, max: 8 }), text: fc.string({ maxLength: 4 }) });
    fc.assert(fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
      expectRefused(edits.reduce((s, { at, cut, text }) => {
        const i = at % s.length;
        return s.slice(0, i) + text + s.slice(i + cut);
      }, VALID));
    }), { numRuns: runs(400), seed: SEED });
  });
});
