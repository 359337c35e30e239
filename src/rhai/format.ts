// Rhai's two text forms of a value: Debug (`format!("{:?}")`, src/types/dynamic.rs) and
// Display (`to_string` / `print`, src/packages/string_basic.rs), including Rust's float rules.
import {
  FnPtr,
  RhaiBlob,
  RhaiChar,
  RhaiFloat,
  RhaiRange,
  RhaiTimestamp,
  sortedKeys,
  type RhaiValue,
} from './values.ts';
import { chargeChars, chargeItems, chargeNewItems, chargeOps } from './cost.ts';
import type { Runtime } from './runtime.ts';

/** Shortest round-trip digits and decimal exponent: 1234.5 -> { digits: '12345', exp: 3 }. */
function shortestDigits(x: number): { digits: string; exp: number } {
  const [mantissa, e] = Math.abs(x).toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), exp: Number(e) };
}

/** Rust `{:e}` for f64: `1e20`, `1.23456789012345e14`, `1e-15`. */
function rustExp(x: number): string {
  const { digits, exp } = shortestDigits(x);
  const sign = x < 0 ? '-' : '';
  const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${frac}e${exp}`;
}

/** Rust `{}` for f64: plain decimal, never an exponent. */
function rustPlain(x: number): string {
  const { digits, exp } = shortestDigits(x);
  const sign = x < 0 ? '-' : '';
  let text: string;
  if (exp < 0) text = `0.${'0'.repeat(-exp - 1)}${digits}`;
  else if (digits.length <= exp + 1) text = digits + '0'.repeat(exp + 1 - digits.length);
  else text = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return sign + text;
}

function specialFloat(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return undefined;
}

/** Rust f64 Debug: exponent form when abs >= 1e16 or 0 < abs < 1e-4. */
function floatDebug(x: number): string {
  const special = specialFloat(x);
  if (special) return special;
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e16 || abs < 1e-4) return rustExp(x);
  const text = rustPlain(x);
  return text.includes('.') ? text : `${text}.0`;
}

const DISPLAY_EXP_HIGH = 9999999827968.0; // 1e13 as f32, widened
const DISPLAY_EXP_LOW = 9.9999998245167e-14; // 1e-13 as f32, widened

/** Rhai FloatWrapper Display (src/types/float.rs). */
function floatDisplay(x: number): string {
  const special = specialFloat(x);
  if (special) return special;
  if (x === 0) return '0.0';
  const abs = Math.abs(x);
  if (abs > DISPLAY_EXP_HIGH || abs < DISPLAY_EXP_LOW) return rustExp(x);
  const text = rustPlain(x);
  return text.includes('.') ? text : `${text}.0`;
}

function escapeChar(c: string, quote: '"' | "'"): string {
  switch (c) {
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\0':
      return '\\0';
    case quote:
      return `\\${quote}`;
  }
  const code = c.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `\\u{${code.toString(16)}}`;
  return c;
}

/** Chars whose escape differs between Rust's Debug and JSON (`\0`, `\u{1}`, ...): rare in text. */
const RARE_ESCAPES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Chars a string's Debug form escapes at all. */
const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u007f-\u009f]/;

export function stringDebug(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  // Without the rare ones, Rust's Debug escapes (`\\`, `\"`, `\n`, `\r`, `\t`) are JSON's, and the
  // engine's own JSON.stringify is a hundred times faster than building the text char by char.
  if (!RARE_ESCAPES.test(s)) return JSON.stringify(s);
  let out = '"';
  for (const c of s) out += escapeChar(c, '"');
  return `${out}"`;
}

/**
 * Charges the work of writing `v` as text (Debug or Display) before it is done (cost.ts): its
 * strings by length, at the per-char rate when they hold chars escaped one at a time, and its
 * items. Walked without recursion, so a deeply nested value is charged, not a stack overflow.
 */
export function chargeFormatting(rt: Runtime, v: RhaiValue): void {
  // Scalars write a few chars: nothing to charge, and no walk (this runs on every `"x" + i`).
  if ((typeof v !== 'object' && typeof v !== 'string') || v instanceof RhaiFloat || v instanceof RhaiChar) return;
  const pending: RhaiValue[] = [v];
  while (pending.length > 0) {
    const x = pending.pop();
    if (typeof x === 'string') {
      // Charged as it is met, so a value of a thousand huge strings stops at the first few.
      chargeChars(rt, x.length);
      if (x.length > 64 && NEEDS_ESCAPE.test(x)) {
        // Escaping writes more than it reads (about twice, JSON.stringify's own speed), and the
        // rare escapes Rust writes differently from JSON take a char at a time.
        chargeChars(rt, x.length);
        if (RARE_ESCAPES.test(x)) chargeNewItems(rt, x.length);
      }
    } else if (Array.isArray(x)) {
      chargeItems(rt, x.length);
      for (const y of x) if (typeof y === 'object' || typeof y === 'string') pending.push(y);
    } else if (x instanceof Map) {
      // Sorting the keys and writing each entry's text: about 1.3 µs an entry measured for a
      // 100,000-entry map (docs/robustness.md), so an operation an entry.
      chargeOps(rt, x.size);
      for (const [k, y] of x) {
        pending.push(k);
        if (typeof y === 'object' || typeof y === 'string') pending.push(y);
      }
    } else if (x instanceof RhaiBlob) chargeItems(rt, x.bytes.length);
    else if (x instanceof FnPtr) for (const y of x.curry) pending.push(y);
  }
}

function charDebug(c: string): string {
  return `'${escapeChar(c, "'")}'`;
}

/** Rust debug_tuple form, as Rhai 1.26 prints it: `Fn("name", curried...)`, `Fn+(...)` for closures. */
function fnPtrDebug(f: FnPtr): string {
  const fields = [stringDebug(f.name), ...f.curry.map(debugString)];
  return `${f.isAnonymous ? 'Fn+' : 'Fn'}(${fields.join(', ')})`;
}

/** Exactly `format!("{:?}", dynamic)`. */
export function debugString(v: RhaiValue): string {
  switch (typeof v) {
    case 'undefined':
      return '()';
    case 'boolean':
    case 'number':
    case 'bigint':
      return String(v);
    case 'string':
      return stringDebug(v);
  }
  if (v instanceof RhaiFloat) return floatDebug(v.v);
  if (v instanceof RhaiChar) return charDebug(v.c);
  if (Array.isArray(v)) return `[${v.map(debugString).join(', ')}]`;
  if (v instanceof Map)
    return `#{${sortedKeys(v)
      .map((k) => `${stringDebug(k)}: ${debugString(v.get(k))}`)
      .join(', ')}}`;
  if (v instanceof RhaiRange) {
    const range = `${v.start}..${v.inclusive ? '=' : ''}${v.end}`;
    return v.step === 1 ? range : `StepRange(${range}, step ${v.step})`;
  }
  if (v instanceof RhaiBlob) return blobDebug(v.bytes);
  if (v instanceof RhaiTimestamp) return '<timestamp>';
  return fnPtrDebug(v);
}

/** A BLOB's Debug form (dynamic.rs): two hex digits per byte, a space after every 8 bytes. */
function blobDebug(bytes: number[]): string {
  let out = '[';
  for (const [i, byte] of bytes.entries()) {
    if (i > 0 && i % 8 === 0) out += ' ';
    out += byte.toString(16).padStart(2, '0');
  }
  return `${out}]`;
}

/** Rhai's `to_debug` script function: Debug, except that a char is bare (string_basic.rs). */
export function toDebugText(v: RhaiValue): string {
  if (v instanceof RhaiChar) return v.c;
  if (Array.isArray(v)) return `[${v.map(toDebugText).join(', ')}]`;
  if (v instanceof Map)
    return `#{${sortedKeys(v)
      .map((k) => `${stringDebug(k)}: ${toDebugText(v.get(k))}`)
      .join(', ')}}`;
  return debugString(v);
}

/** `to_string` / `print` / string `+` / interpolation form. */
export function displayString(v: RhaiValue): string {
  switch (typeof v) {
    case 'undefined':
      return '';
    case 'string':
      return v;
    case 'boolean':
    case 'number':
    case 'bigint':
      return String(v);
  }
  if (v instanceof RhaiFloat) return floatDisplay(v.v);
  if (v instanceof RhaiChar) return v.c;
  if (Array.isArray(v) || v instanceof Map) return toDebugText(v);
  if (v instanceof RhaiRange || v instanceof RhaiBlob || v instanceof RhaiTimestamp) return debugString(v);
  return `Fn(${v.name})`;
}
