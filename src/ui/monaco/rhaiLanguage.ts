// What the editor offers in .rhai hook files: the hook names with their signatures, `ctx` fields
// for the hook the cursor is in (custom-regions.md "The three hooks"), the standard functions,
// and hover docs for all of them. Pure functions, tested without Monaco.
import { NATIVE_FUNCTIONS } from '../../rhai/packages/index.ts';
import type { CompletionItem } from './leviathLanguage.ts';
import { itemAt } from '../../engine/page.ts';

export type Hook = 'render' | 'on_write' | 'on_overflow';

export const HOOKS: Record<Hook, { signature: string; doc: string; snippet: string }> = {
  render: {
    signature: 'fn render(ctx) -> string | #{ system, messages }',
    doc: 'Required. Runs on every inference, even when the region is empty. Return a string (one system block; "" means nothing) or a map with `system` (a string or an array of strings) and `messages` (role/content maps).',
    snippet: 'fn render(ctx) {\n    ""\n}',
  },
  on_write: {
    signature: 'fn on_write(ctx) -> string | bool | ()',
    doc: 'Optional. Sees each entry headed into the region. Return a string to replace the content (tokens re-estimated, kind kept), true or () to accept it unchanged, false to drop it.',
    snippet: 'fn on_write(ctx) {\n    ()\n}',
  },
  on_overflow: {
    signature: 'fn on_overflow(ctx) -> array of entry indices',
    doc: 'Optional. Runs when the region must shrink. Return the indices of entries to drop; if they do not free enough, oldest-first eviction makes up the difference.',
    snippet: 'fn on_overflow(ctx) {\n    []\n}',
  },
};

type Fields = Record<string, string>;

const REGION_FIELDS: Fields = {
  name: "The region's name.",
  budget: 'The resolved budget in tokens (the percentage already worked out against the model).',
  current_tokens: 'Tokens the region holds now.',
  entry_count: 'Entries the region holds now.',
};
const ENTRY_FIELDS: Fields = {
  content: "The entry's text.",
  tokens: 'Its size in tokens.',
  timestamp: 'When it was written (seconds).',
  key: 'Its key, or () when written without one.',
  kind: '"text", "user_message", "assistant_turn" or "tool_result".',
  tool_calls: 'assistant_turn only: the calls, each #{ id, name, arguments }.',
  tool_call_id: 'tool_result only: the call it answers.',
  tool_name: "tool_result only: the tool's name.",
  is_error: 'tool_result only: whether the tool failed.',
};
const WINDOW_FIELDS: Fields = {
  total_tokens: 'Tokens in the whole request so far.',
  max_tokens: "The model's context window.",
};

/** `ctx` per hook, as custom-regions.md describes it. */
export const CTX_FIELDS: Record<Hook, Fields> = {
  render: {
    region: 'The region: #{ name, budget, current_tokens, entry_count }.',
    entries: 'The entries, oldest first: #{ content, tokens, timestamp, key, kind, … }.',
    stage_name: 'The stage being run.',
    stage_iterations: 'How many times this stage has run.',
    model: 'The model id.',
    window: 'The whole request: #{ total_tokens, max_tokens }.',
  },
  on_write: {
    region: 'The region: #{ name, budget, current_tokens, entry_count }.',
    entry: 'The entry headed in: #{ content, kind, tokens }.',
  },
  on_overflow: {
    region: 'The region: #{ name, budget, current_tokens, entry_count }.',
    entries: 'The entries, oldest first; return the indices to drop.',
    needed_tokens: 'How many tokens must be freed.',
  },
};

const NESTED: Record<string, Fields> = {
  region: REGION_FIELDS,
  window: WINDOW_FIELDS,
  entry: { content: ENTRY_FIELDS.content!, kind: ENTRY_FIELDS.kind!, tokens: ENTRY_FIELDS.tokens! },
};

/** Short docs for the standard functions people reach for in hooks; the rest get their name. */
export const FUNCTION_DOCS: Record<string, string> = {
  len: 'len(x): the length of a string (in characters), an array or a map.',
  contains: 'contains(s, x): whether a string holds a substring/char, an array an item, or a map a key.',
  split: 'split(s, sep): the pieces of a string around a separator; split(s) the words between runs of whitespace.',
  trim: 's.trim(): removes leading and trailing whitespace (changes s).',
  to_upper: 'to_upper(s): the string in upper case.',
  to_lower: 'to_lower(s): the string in lower case.',
  starts_with: 'starts_with(s, prefix): whether the string begins with prefix.',
  ends_with: 'ends_with(s, suffix): whether the string ends with suffix.',
  index_of:
    'index_of(s, find): the character position of find, or -1; index_of(a, x) or index_of(a, |x| …) the first matching index of an array.',
  sub_string: 'sub_string(s, start, len): part of a string, by characters.',
  replace: 's.replace(find, with): replaces every occurrence (changes s).',
  push: 'a.push(x): appends x to the array (changes a).',
  pop: 'a.pop(): removes and returns the last item.',
  filter: 'a.filter(|x| …): the items for which the closure returns true.',
  map: 'a.map(|x| …): the closure applied to every item.',
  reduce: 'a.reduce(|sum, x| …, init): folds the array into one value.',
  sort: 'a.sort() or a.sort(|a, b| …): sorts the array in place.',
  reverse: 'a.reverse(): reverses the array in place.',
  join: 'join(a, sep): the items as strings, joined by sep.',
  keys: 'keys(m): the keys of a map.',
  values: 'values(m): the values of a map.',
  to_string: 'to_string(x): x as text.',
  parse_int: 'parse_int(s): the integer in a string (an error when it is not one).',
  type_of: 'type_of(x): the type name of a value ("string", "i64", "array", …).',
  min: 'min(a, b): the smaller number.',
  max: 'max(a, b): the larger number.',
  abs: 'abs(n): the absolute value.',
  floor: 'floor(f): rounds down.',
  round: 'round(f): rounds to the nearest whole number.',
  to_json: 'm.to_json(): the map as JSON text (a Fn pointer as its name).',
  blob: 'blob(), blob(len), blob(len, byte): a BLOB (byte array), filled with byte.',
  to_blob: "s.to_blob(): the string's UTF-8 bytes as a BLOB.",
  as_string: "b.as_string(): a BLOB's bytes read as UTF-8 text.",
  to_array: "b.to_array(): a BLOB's bytes as an array of integers.",
  parse_le_int: 'parse_le_int(b, start, len) or (b, range): up to 8 bytes as a little-endian integer.',
  parse_be_int: 'parse_be_int(b, start, len) or (b, range): up to 8 bytes as a big-endian integer.',
  parse_le_float: 'parse_le_float(b, start, len) or (b, range): up to 8 bytes as a little-endian float.',
  parse_be_float: 'parse_be_float(b, start, len) or (b, range): up to 8 bytes as a big-endian float.',
  write_le: "write_le(b, start, len, n) or (b, range, n): writes a number's little-endian bytes into the BLOB.",
  write_be: "write_be(b, start, len, n) or (b, range, n): writes a number's big-endian bytes into the BLOB.",
  write_utf8: "write_utf8(b, start, len, s) or (b, range, s): writes a string's UTF-8 bytes into the BLOB.",
  write_ascii: "write_ascii(b, start, len, s) or (b, range, s): writes a string's ASCII characters into the BLOB.",
  timestamp: 'timestamp(): now, for measuring time: t.elapsed, t2 - t1 (seconds), t + seconds.',
  elapsed: 't.elapsed or elapsed(t): seconds since the timestamp t.',
  eval: 'eval(text): runs text as statements in this scope (a `let` in it adds a variable here).',
  is_shared: 'is_shared(x): whether the variable has been captured by a closure.',
  is_def_var: 'is_def_var("name"): whether a variable of that name is in scope.',
  is_def_fn: 'is_def_fn("name", arity): whether a script function of that name and arity exists.',
};

/** Functions of the language itself (not in the standard packages), offered with the standard ones. */
const KEYWORD_FUNCTIONS = ['eval', 'is_shared', 'is_def_var'];

/** Syntax offered at the start of a statement: modules. */
const STATEMENT_SNIPPETS: CompletionItem[] = [
  {
    label: 'import',
    insertText: 'import "helpers" as helpers;',
    kind: 'snippet',
    detail: 'import "path" as name;',
    documentation:
      'Loads the module path.rhai (relative to this file, inside the agent directory) and names it: name::x, name::f(…).',
  },
  {
    label: 'export',
    insertText: 'export ',
    kind: 'snippet',
    detail: 'export name [as alias]; export let / const',
    documentation: 'In a module: makes a top-level variable readable as module::name by the scripts that import it.',
  },
];

/** Hover docs for the module syntax. */
const KEYWORD_DOCS: Record<string, string> = {
  import:
    '`import "path" as name;`\n\nLoads the module path.rhai (relative to this file, inside the agent directory) once and names it: `name::x` reads what it exports, `name::f(…)` calls its functions. An import inside a block or function lasts until its end.',
  export:
    "`export name [as alias];`, `export let` / `export const`\n\nIn a module, at the top level: makes the variable's final value readable as `module::alias`. Non-private functions are exported without it.",
  global: "`global::NAME`\n\nA constant declared at the script's top level, seen from inside a function.",
};

/** The hook whose body holds the 1-based line, or null outside any hook. */
export function hookAt(text: string, line: number): Hook | null {
  const lines = text.split('\n').slice(0, line);
  for (let k = lines.length - 1; k >= 0; k--) {
    const m = /^\s*fn\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(itemAt(lines, k));
    if (m) return m[1] === 'render' || m[1] === 'on_write' || m[1] === 'on_overflow' ? m[1] : null;
  }
  return null;
}

function fieldItems(fields: Fields, detail: string): CompletionItem[] {
  return Object.entries(fields).map(([name, doc]) => ({
    label: name,
    insertText: name,
    kind: 'key' as const,
    detail,
    documentation: doc,
  }));
}

export function completeRhai(text: string, line: number, column: number): CompletionItem[] {
  const before = (text.split('\n')[line - 1] ?? '').slice(0, column - 1);
  if (/^\s*fn\s+[A-Za-z_]*$/.test(before)) {
    const written = new Set([...text.matchAll(/^\s*fn\s+([A-Za-z_]\w*)/gm)].map((m) => m[1]));
    return (Object.keys(HOOKS) as Hook[])
      .filter((h) => !written.has(h))
      .map((h) => ({
        label: h,
        insertText: HOOKS[h].snippet.slice(3),
        kind: 'snippet',
        detail: HOOKS[h].signature,
        documentation: HOOKS[h].doc,
      }));
  }
  const hook = hookAt(text, line);
  const namespace = /\b([A-Za-z_]\w*)\s*::\s*[A-Za-z_]*$/.exec(before);
  if (namespace) {
    // global:: offers the script's top-level constants; a module's names are in its own file.
    if (namespace[1] !== 'global') return [];
    return [...text.matchAll(/^(?:export\s+)?const\s+([A-Za-z]\w*)/gm)].map((m) => ({
      label: itemAt(m, 1),
      insertText: itemAt(m, 1),
      kind: 'value' as const,
      detail: 'global constant',
    }));
  }
  const member = /\bctx\s*\.\s*(?:([A-Za-z_]\w*)\s*\.\s*)?[A-Za-z_]*$/.exec(before);
  if (member && hook) {
    if (!member[1]) return fieldItems(CTX_FIELDS[hook], `ctx in ${hook}`);
    const nested = member[1] in CTX_FIELDS[hook] ? NESTED[member[1]] : undefined;
    return nested ? fieldItems(nested, `ctx.${member[1]}`) : [];
  }
  // An entry from `for entry in ctx.entries` (or any name bound that way).
  const loopVar = [
    ...text
      .split('\n')
      .slice(0, line)
      .join('\n')
      .matchAll(/for\s+\(?\s*([A-Za-z_]\w*)[^)]*?\)?\s+in\s+ctx\s*\.\s*entries/g),
  ].map((m) => m[1]);
  const entryMember = /\b([A-Za-z_]\w*)\s*\.\s*[A-Za-z_]*$/.exec(before);
  if (entryMember && loopVar.includes(entryMember[1])) return fieldItems(ENTRY_FIELDS, 'entry');
  if (/\.\s*[A-Za-z_]*$/.test(before)) return functionItems();
  const statementStart = /^\s*[A-Za-z_]*$/.test(before);
  if (/(^|[^\w.])[A-Za-z_]*$/.test(before)) {
    return [
      ...(hook ? [{ label: 'ctx', insertText: 'ctx', kind: 'value' as const, detail: `the ${hook} context` }] : []),
      ...(statementStart ? STATEMENT_SNIPPETS : []),
      ...functionItems(),
    ];
  }
  return [];
}

function functionItems(): CompletionItem[] {
  return [...NATIVE_FUNCTIONS.keys(), ...KEYWORD_FUNCTIONS]
    .filter((n) => /^[a-z_][a-z0-9_]*$/.test(n))
    .sort()
    .map((name) => ({
      label: name,
      insertText: name,
      kind: 'value' as const,
      detail: 'standard function',
      documentation: FUNCTION_DOCS[name],
    }));
}

/** Hover docs for a hook name, a ctx field, or a standard function at the cursor. */
export function hoverRhai(text: string, line: number, column: number): { word: string; markdown: string } | null {
  const current = text.split('\n')[line - 1] ?? '';
  let start = column - 1;
  let end = column - 1;
  while (start > 0 && /\w/.test(current.charAt(start - 1))) start--;
  while (end < current.length && /\w/.test(current.charAt(end))) end++;
  const word = current.slice(start, end);
  if (!word) return null;
  if (word in HOOKS) return { word, markdown: `\`${HOOKS[word as Hook].signature}\`\n\n${HOOKS[word as Hook].doc}` };
  const before = current.slice(0, start);
  const hook = hookAt(text, line);
  const member = /\bctx\s*\.\s*(?:([A-Za-z_]\w*)\s*\.\s*)?$/.exec(before);
  if (member && hook) {
    const fields = member[1] ? NESTED[member[1]] : CTX_FIELDS[hook];
    const doc = fields?.[word];
    if (doc)
      return { word, markdown: `**${member[1] ? `ctx.${member[1]}.${word}` : `ctx.${word}`}** (${hook})\n\n${doc}` };
  }
  if (NATIVE_FUNCTIONS.has(word) || KEYWORD_FUNCTIONS.includes(word)) {
    return {
      word,
      markdown: `**${word}** — standard function\n\n${FUNCTION_DOCS[word] ?? 'A Rhai standard-library function.'}`,
    };
  }
  if (KEYWORD_DOCS[word]) return { word, markdown: KEYWORD_DOCS[word] };
  return null;
}
