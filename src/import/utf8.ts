// A trace file's bytes -> text. Bytes that are not valid UTF-8 still decode (as U+FFFD, as every
// reader does), but the import says so, with the byte offset of the first bad sequence, instead of
// replaying silently altered text. A leading byte-order mark is dropped (JSON.parse refuses it).
import { fmt } from '../engine/format.ts';

export interface DecodedTrace {
  text: string;
  /** The 0-based byte offset of the first sequence that is not valid UTF-8; absent when all of it is. */
  invalidUtf8At?: number;
}

/** What `lev` and the page say of a file that is not valid UTF-8 (an import's report words its own). */
export function invalidUtf8Warning(file: string, at: number): string {
  return `${file} is not valid UTF-8 from byte ${fmt(at)} (0-based); those bytes read as U+FFFD (\uFFFD). `
    + 'Save the file as UTF-8 to keep its text as written.';
}

export function decodeTrace(bytes: Uint8Array): DecodedTrace {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), invalidUtf8At: firstInvalidUtf8(bytes) };
  }
}

/**
 * The offset of the first byte that starts an ill-formed sequence (the Unicode standard's
 * well-formed table: no overlong forms, no surrogates, nothing past U+10FFFF, no truncation), or -1.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) { i++; continue; }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0; // overlong
      if (lead === 0xed) high = 0x9f; // surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90; // overlong
      if (lead === 0xf4) high = 0x8f; // past U+10FFFF
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k]!;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}
