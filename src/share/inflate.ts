// Inflation with a hard output cap, enforced while inflating: the input is fed in small slices,
// so however the data was built, no more than about `cap` + 1 MB is ever allocated.
import { Inflate } from 'fflate';
import { fmt } from '../engine/page.ts';

/** DEFLATE expands at most ~1,032x, so one slice yields at most ~1 MB before the cap is checked. */
const INPUT_SLICE = 1024;

export class InflateLimitError extends Error {
  constructor(readonly cap: number) {
    super(`inflates past ${fmt(cap)} bytes`);
    this.name = 'InflateLimitError';
  }
}

/** Raw DEFLATE -> bytes. Throws InflateLimitError past `cap`, or fflate's error on corrupt data. */
export function inflateCapped(data: Uint8Array, cap: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > cap) throw new InflateLimitError(cap);
    chunks.push(chunk);
  });
  let offset = 0;
  do {
    const end = Math.min(offset + INPUT_SLICE, data.length);
    inflater.push(data.subarray(offset, end), end === data.length);
    offset = end;
  } while (offset < data.length);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
