// Small readers for untrusted JSON: each either returns the typed value or throws an ImportError
// naming the path and what was expected there.
import { ImportError, type Where } from './trace.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const at = (where: Where, key: string | number): Where => ({
  ...where,
  path: typeof key === 'number' ? `${where.path}[${key}]` : where.path ? `${where.path}.${key}` : key,
});

/** What was found where something else was expected: "missing", or "found <the value>". */
export function found(value: unknown): string {
  return value === undefined ? 'missing' : `found ${describeValue(value)}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length > 40 ? `the string "${value.slice(0, 40)}…"` : `the string ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an object' : `the ${typeof value} ${String(value)}`;
}

export function objectAt(value: unknown, where: Where, expected: string): JsonObject {
  if (!isObject(value)) throw new ImportError(where, found(value), expected);
  return value;
}

export function arrayAt(value: unknown, where: Where, expected: string): unknown[] {
  if (!Array.isArray(value)) throw new ImportError(where, found(value), expected);
  return value;
}

export function stringAt(value: unknown, where: Where, expected: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new ImportError(where, found(value), expected);
  return value;
}

/** Tool-call arguments given as a JSON text (OpenAI, Codex): an object, or an empty text for none. */
export function argumentsFromText(value: unknown, where: Where): JsonObject {
  if (isObject(value)) return value;
  if (typeof value !== 'string')
    throw new ImportError(where, found(value), "the call's arguments as a JSON object encoded in a string");
  if (value.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new ImportError(
      where,
      `the arguments are not valid JSON (${(error as Error).message})`,
      "the call's arguments as a JSON object encoded in a string",
    );
  }
  return objectAt(parsed, where, "the call's arguments to decode to a JSON object");
}
