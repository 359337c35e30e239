// A trace whose bytes are not valid UTF-8 still imports, but says where the first bad sequence is.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeReport, importTrace } from '../../src/import/index.ts';
import { decodeTrace, firstInvalidUtf8 } from '../../src/import/utf8.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe('firstInvalidUtf8', () => {
  it('finds no fault in valid text of every sequence length', () => {
    expect(firstInvalidUtf8(utf8('a é € 𝄞 \u{10FFFF}'))).toBe(-1);
  });

  it('points at the lead byte of each ill-formed kind', () => {
    expect(firstInvalidUtf8(bytes(0x61, 0xff, 0x62))).toBe(1); // never a lead byte
    expect(firstInvalidUtf8(bytes(0x61, 0x62, 0x80))).toBe(2); // a lone continuation byte
    expect(firstInvalidUtf8(bytes(0x61, 0xc0, 0xaf))).toBe(1); // overlong two-byte form
    expect(firstInvalidUtf8(bytes(0xe0, 0x80, 0xaf))).toBe(0); // overlong three-byte form
    expect(firstInvalidUtf8(bytes(0x61, 0xed, 0xa0, 0x80))).toBe(1); // a surrogate (U+D800)
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(bytes(0x61, 0x62, 0xe2, 0x82))).toBe(2); // cut off at the end
    expect(firstInvalidUtf8(bytes(0xe2, 0x82, 0x41))).toBe(0); // a continuation replaced by ASCII
  });
});

describe('decodeTrace', () => {
  it('decodes valid bytes without a warning and drops a byte-order mark', () => {
    expect(decodeTrace(bytes(0xef, 0xbb, 0xbf, ...utf8('{"a":"é"}')))).toEqual({ text: '{"a":"é"}' });
  });

  it('reads bad bytes as U+FFFD and gives the offset of the first', () => {
    expect(decodeTrace(bytes(...utf8('ok é'), 0xc3, 0x28, 0xff))).toEqual({
      text: 'ok é\uFFFD(\uFFFD',
      invalidUtf8At: 5,
    });
  });
});

describe('importing bytes', () => {
  it('a valid file imports as its text does, with no warning', () => {
    const file = fixture('anthropic-messages.json');
    const fromBytes = importTrace(file);
    expect(fromBytes).toEqual(importTrace(file.toString('utf8')));
    expect(fromBytes.report.invalidUtf8At).toBeUndefined();
  });

  it('a bad byte in the task: the import goes on and the report warns first, with the offset', () => {
    const file = fixture('anthropic-messages.json');
    const at = file.indexOf('Make it accept');
    const broken = Buffer.concat([file.subarray(0, at), bytes(0xff), file.subarray(at)]);
    const { scenario, report } = importTrace(broken);
    expect(report.invalidUtf8At).toBe(at);
    expect(scenario.inputs.task).toBe(
      'The header parser rejects headers with an empty value (`X-Empty:`). \uFFFDMake it accept them and add a test.',
    );
    expect(describeReport(report)[0]).toBe(
      `warning: not valid UTF-8 at byte ${at} (the first bad sequence, counted from 0): bad bytes were read as U+FFFD, so that text differs from the original; save the trace as UTF-8 to import it exactly`,
    );
  });
});
