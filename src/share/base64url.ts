// base64url without padding (RFC 4648 §5), the same in the browser and Node: every character is
// safe in a URL fragment, so chat apps and browsers leave the link alone.
import { itemAt } from '../engine/page.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (itemAt(bytes, i) << 16) | (itemAt(bytes, i + 1) << 8) | itemAt(bytes, i + 2);
    out +=
      ALPHABET.charAt(n >>> 18) +
      ALPHABET.charAt((n >>> 12) & 63) +
      ALPHABET.charAt((n >>> 6) & 63) +
      ALPHABET.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = itemAt(bytes, i) << 16;
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63);
  } else if (rest === 2) {
    const n = (itemAt(bytes, i) << 16) | (itemAt(bytes, i + 1) << 8);
    out += ALPHABET.charAt(n >>> 18) + ALPHABET.charAt((n >>> 12) & 63) + ALPHABET.charAt((n >>> 6) & 63);
  }
  return out;
}

export type Base64Result = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** Decodes base64url; trailing `=` padding is tolerated, any other stray character is an error. */
export function fromBase64Url(text: string): Base64Result {
  const body = text.replace(/=+$/, '');
  if (body.length % 4 === 1)
    return { ok: false, error: `its length (${body.length}) is not a possible base64url length` };
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let out = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    const value = VALUES[code] ?? -1;
    if (value < 0)
      return { ok: false, error: `character ${JSON.stringify(body[i])} at position ${i + 1} is not base64url` };
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[out++] = (buffer >>> bits) & 0xff;
    }
  }
  return { ok: true, bytes };
}
