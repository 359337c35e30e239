// A trace file's bytes -> text. Bytes that are not valid UTF-8 still decode (as U+FFFD, as every
// reader does), but the import says so, with the byte offset of the first bad sequence, instead of
// replaying silently altered text. A leading byte-order mark is dropped (JSON.parse refuses it).
import { fmt } from '../engine/page.ts';
import { ImportError } from './trace.ts';

export interface DecodedTrace {
  text: string;
  /** The 0-based byte offset of the first sequence that is not valid UTF-8; absent when all of it is. */
  invalidUtf8At?: number;
}

/** What `lev` and the page say of a file that is not valid UTF-8 (an import's report words its own). */
export function invalidUtf8Warning(file: string, at: number): string {
  return (
    `${file} is not valid UTF-8 from byte ${fmt(at)} (0-based); those bytes read as U+FFFD (\uFFFD). ` +
    'Save the file as UTF-8 to keep its text as written.'
  );
}

export function decodeTrace(bytes: Uint8Array): DecodedTrace {
  const other = otherEncoding(bytes);
  if (other) throw new EncodingError(other);
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
    if (lead < 0x80) {
      i++;
      continue;
    }
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

/** Text encodings that are not UTF-8 but can be recognized from their bytes alone. */
export type OtherEncoding = 'UTF-16LE' | 'UTF-16BE' | 'UTF-32LE' | 'UTF-32BE';

export interface FoundEncoding {
  encoding: OtherEncoding;
  /** What gave it away: its byte-order mark, or where its zero bytes fall. */
  evidence: string;
}

const BOMS: [OtherEncoding, number[]][] = [
  // UTF-32LE's mark starts with UTF-16LE's, so it is tried first.
  ['UTF-32LE', [0xff, 0xfe, 0x00, 0x00]],
  ['UTF-32BE', [0x00, 0x00, 0xfe, 0xff]],
  ['UTF-16LE', [0xff, 0xfe]],
  ['UTF-16BE', [0xfe, 0xff]],
];

/** How many leading bytes the zero-byte pattern is judged on. */
const SAMPLE_BYTES = 4096;

/**
 * UTF-16 or UTF-32 text, recognized by its byte-order mark, or without one by where its zero bytes
 * fall: JSON and TOML are mostly ASCII, which these encodings write with one (UTF-16) or three
 * (UTF-32) zero bytes beside each character, always on the same side. UTF-8 text never has zero
 * bytes (JSON cannot hold a raw U+0000), so the pattern cannot be mistaken for it.
 */
export function otherEncoding(bytes: Uint8Array): FoundEncoding | undefined {
  for (const [encoding, mark] of BOMS) {
    if (bytes.length >= mark.length && mark.every((b, i) => bytes[i] === b)) {
      return {
        encoding,
        evidence: `it starts with the byte-order mark ${mark.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ')}`,
      };
    }
  }
  const length = Math.min(bytes.length, SAMPLE_BYTES) & ~3;
  if (length < 4) return undefined;
  const zeros = [0, 0, 0, 0];
  for (let i = 0; i < length; i++) if (bytes[i] === 0) zeros[i & 3]!++;
  const units = length / 4;
  // Most of the 4-byte groups have zeros in these places, and almost none in the others.
  const pattern = (zeroAt: number[]) =>
    [0, 1, 2, 3].every((k) => (zeroAt.includes(k) ? zeros[k]! >= units * 0.6 : zeros[k]! <= units * 0.1));
  const found = (
    [
      ['UTF-32LE', [1, 2, 3], 'three zero bytes after each character'],
      ['UTF-32BE', [0, 1, 2], 'three zero bytes before each character'],
      ['UTF-16LE', [1, 3], 'a zero byte after each character'],
      ['UTF-16BE', [0, 2], 'a zero byte before each character'],
    ] as const
  ).find(([, zeroAt]) => pattern([...zeroAt]));
  return found && { encoding: found[0], evidence: `${found[2]}, as ${found[0]} writes plain text` };
}

const ENCODING_WORDS: Record<OtherEncoding, string> = {
  'UTF-16LE': 'UTF-16 (little-endian)',
  'UTF-16BE': 'UTF-16 (big-endian)',
  'UTF-32LE': 'UTF-32 (little-endian)',
  'UTF-32BE': 'UTF-32 (big-endian)',
};

/**
 * A file in another encoding than UTF-8: refused rather than read as garbage (which JSON.parse then
 * called "Unexpected token"). Each surface says what to do in its own words (`encodingAdvice`).
 */
export class EncodingError extends ImportError {
  constructor(readonly found: FoundEncoding) {
    super(
      { path: '' },
      `the file is ${ENCODING_WORDS[found.encoding]} text, not UTF-8 (${found.evidence})`,
      'UTF-8 text',
    );
    this.name = 'EncodingError';
  }
}

/** What `lev` and the page say of such a file: its encoding, how it was told, and how to convert it there. */
export function encodingAdvice(file: string, found: FoundEncoding, surface: 'cli' | 'page'): string {
  const what = `${file} is ${ENCODING_WORDS[found.encoding]} text, not UTF-8 (${found.evidence}). `;
  return surface === 'cli'
    ? `${what}lev reads UTF-8 only: convert it (iconv -f ${found.encoding} -t UTF-8 ${file} > ${convertedName(file)}) and pass the converted file.`
    : `${what}The playground reads UTF-8 only: open it in a text editor, save it with the encoding UTF-8 (often under Save As or Save with Encoding), and import it again.`;
}

/** `run.json` -> `run-utf8.json`, for the conversion `lev` suggests. */
function convertedName(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot > file.lastIndexOf('/') + 1 ? `${file.slice(0, dot)}-utf8${file.slice(dot)}` : `${file}-utf8`;
}
