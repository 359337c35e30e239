// Turns the assertions of Rhai's own test suite (rhaiscript/rhai, tests/*.rs) into a conformance
// file: every assertion that runs a script on a plain `Engine::new()` and compares the result with
// a literal value or an error kind becomes one case; everything else is counted under the reason
// it was left out. Run by hand (the Rhai checkout is not part of the project):
//
//   npx tsx test/rhai/rhai-tests/extract.ts --git-dir /work/.mirror/rhaiscript+rhai/repo --commit f1f06ab9
//
// It writes cases.json beside this file and prints the counts README.md quotes; `--show REASON`
// also lists each left-out assertion whose reason contains REASON (file:line and its start). Only Rust's
// syntax is read here (a small lexer and a statement walker); nothing is compiled or run.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

// ---- the case format (read by test/rhai/rhai-tests.test.ts) -----------------------------------

/** A Rhai value as a Rust test writes it, tagged by type (ints as decimal text: i64 is exact). */
export type Expected =
  | { int: string }
  | { float: number | 'NaN' | 'inf' | '-inf' }
  | { string: string }
  | { char: string }
  | { bool: boolean }
  | { unit: true }
  | { array: Expected[] }
  | { blob: number[] };

export interface RhaiTestCase {
  /** `tests/arrays.rs` */
  file: string;
  /** The Rust test function. */
  test: string;
  /** 1-based line of the assertion in the Rust file. */
  line: number;
  /** `eval` (a script's value), `run` (no value), `compile` (parse only). */
  call: 'eval' | 'run' | 'compile' | 'eval_expression' | 'compile_expression';
  /** The Rust type `eval::<T>` asks for (a result of another type is ErrorMismatchOutputType). */
  type?: string;
  script: string;
  /**
   * The result equals `value` (a float within `tolerance` when given), or compares with it by
   * `compare` (`<`, `>`), or has `length` items, or (`ok`, a bare `.unwrap()`) the call succeeds
   * with a result of the asked type; or the run fails with one of the error variants
   * (`*` for any error), `inner` naming the error an ErrorInFunctionCall wraps, `message` its text.
   */
  expect: RhaiTestExpectation;
  /** The value compared is the result map's entry of this key (`x["a"].as_int()` on a Map result). */
  key?: string;
  /**
   * `new_raw`: the Rust test's engine is `Engine::new_raw()` (no packages); its scripts use only
   * the operators and syntax a raw engine has, so the full engine gives the same result.
   */
  engine?: 'new_raw';
  /** The Rust call the script stands for, when the test calls a Rust API rather than a script. */
  rust?: string;
}

export type RhaiTestExpectation =
  | { value: Expected; tolerance?: number; compare?: '<' | '>' }
  | { ok: true }
  | { length: number }
  | { error: string[]; inner?: string[]; parse?: string; message?: string; position?: [number, number] };

export interface RhaiTestsFile {
  source: { repository: string; commit: string; version: string; license: string; files: number };
  /** Assertions found and left out, by reason. */
  excluded: Record<string, number>;
  cases: RhaiTestCase[];
}

// ---- Rust lexer --------------------------------------------------------------------------------

interface Tok {
  kind: 'ident' | 'str' | 'char' | 'num' | 'punct' | 'lifetime';
  text: string;
  value?: string;
  line: number;
}

const PUNCT3 = ['..=', '...', '<<=', '>>='];
const PUNCT2 = [
  '::',
  '->',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '+=',
  '-=',
  '*=',
  '/=',
  '..',
  '<<',
  '>>',
  '%=',
  '^=',
  '|=',
  '&=',
];

function lexRust(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  const at = (k = 0): string => src[i + k] ?? '';
  const take = (n: number): string => {
    const s = src.slice(i, i + n);
    for (const c of s) if (c === '\n') line++;
    i += n;
    return s;
  };
  while (i < src.length) {
    const c = at();
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r') {
      take(1);
      continue;
    }
    if (c === '/' && at(1) === '/') {
      while (i < src.length && at() !== '\n') take(1);
      continue;
    }
    if (c === '/' && at(1) === '*') {
      let depth = 0;
      do {
        if (at() === '/' && at(1) === '*') {
          depth++;
          take(2);
        } else if (at() === '*' && at(1) === '/') {
          depth--;
          take(2);
        } else take(1);
      } while (depth > 0 && i < src.length);
      continue;
    }
    const start = line;
    // Raw strings r"..", r#".."#, br#".."#.
    const raw = /^b?r(#*)"/.exec(src.slice(i, i + 40));
    if (raw) {
      const hashes = raw[1]!;
      take(raw[0].length);
      const close = `"${hashes}`;
      const end = src.indexOf(close, i);
      const value = src.slice(i, end);
      take(end - i + close.length);
      toks.push({ kind: 'str', text: 'r"…"', value, line: start });
      continue;
    }
    if (c === '"' || (c === 'b' && at(1) === '"')) {
      if (c === 'b') take(1);
      take(1);
      let value = '';
      while (at() !== '"') {
        if (at() === '\\') value += rustEscape();
        else value += take(1);
      }
      take(1);
      toks.push({ kind: 'str', text: '"…"', value, line: start });
      continue;
    }
    if (c === "'") {
      // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
      if (at(1) === '\\') {
        take(1);
        const value = rustEscape();
        take(1);
        toks.push({ kind: 'char', text: "'…'", value, line: start });
        continue;
      }
      const cp = src.codePointAt(i + 1)!;
      const ch = String.fromCodePoint(cp);
      if (src[i + 1 + ch.length] === "'") {
        take(2 + ch.length);
        toks.push({ kind: 'char', text: "'…'", value: ch, line: start });
        continue;
      }
      const m = /^'[A-Za-z_]\w*/.exec(src.slice(i, i + 64))!;
      take(m[0].length);
      toks.push({ kind: 'lifetime', text: m[0], line: start });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(src.slice(i, i + 200))!;
      toks.push({ kind: 'ident', text: take(m[0].length), line: start });
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m =
        /^(0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9_]+)?|[0-9][0-9_]*\.(?![.\w]))([iuf](8|16|32|64|128|size))?/.exec(
          src.slice(i, i + 100),
        )!;
      toks.push({ kind: 'num', text: take(m[0].length), line: start });
      continue;
    }
    const p3 = src.slice(i, i + 3);
    const p2 = src.slice(i, i + 2);
    if (PUNCT3.includes(p3)) {
      toks.push({ kind: 'punct', text: take(3), line: start });
      continue;
    }
    if (PUNCT2.includes(p2)) {
      toks.push({ kind: 'punct', text: take(2), line: start });
      continue;
    }
    toks.push({ kind: 'punct', text: take(1), line: start });
  }
  return toks;

  function rustEscape(): string {
    take(1);
    const e = take(1);
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '0':
        return '\0';
      case '\\':
        return '\\';
      case '"':
        return '"';
      case "'":
        return "'";
      case 'x':
        return String.fromCharCode(parseInt(take(2), 16));
      case 'u': {
        const m = /^\{([0-9a-fA-F_]+)\}/.exec(src.slice(i, i + 12))!;
        take(m[0].length);
        return String.fromCodePoint(parseInt(m[1]!.replace(/_/g, ''), 16));
      }
      case '\n': // a line continuation skips the newline and the next line's leading whitespace
        while (/[ \t\n\r]/.test(at())) take(1);
        return '';
      case '\r':
        while (/[ \t\n\r]/.test(at())) take(1);
        return '';
    }
    throw new Error(`unknown Rust escape \\${e} at line ${line}`);
  }
}

// ---- cfg ---------------------------------------------------------------------------------------

/** Rhai's default features (Cargo.toml `default = ["std", ...]`), a 64-bit release build. */
const DEFAULT_FEATURES = new Set(['std']);

/** Evaluates the tokens of a `cfg(...)` predicate. */
function evalCfg(t: Tok[]): boolean {
  let p = 0;
  const pred = (): boolean => {
    const head = t[p++]!;
    if (head.text === 'not') {
      p++;
      const v = pred();
      p++;
      return !v;
    }
    if (head.text === 'all' || head.text === 'any') {
      p++;
      const vals: boolean[] = [];
      while (t[p]!.text !== ')') {
        vals.push(pred());
        if (t[p]!.text === ',') p++;
      }
      p++;
      return head.text === 'all' ? vals.every(Boolean) : vals.some(Boolean);
    }
    if (t[p]?.text === '=') {
      p++;
      const value = t[p++]!.value!;
      if (head.text === 'feature') return DEFAULT_FEATURES.has(value);
      if (head.text === 'target_pointer_width') return value === '64';
      return false; // target_family = "wasm", target_os, ...
    }
    if (head.text === 'debug_assertions') return false; // the release build real Rhai's defaults describe
    if (head.text === 'test') return true;
    return false;
  };
  return pred();
}

// ---- walking a test file ----------------------------------------------------------------------

interface Found {
  cases: RhaiTestCase[];
  excluded: Map<string, number>;
  /** `--show REASON`: print each left-out assertion whose reason contains this text. */
  show?: string;
}

function matching(t: Tok[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let k = open; k < t.length; k++) {
    const x = t[k]!.text;
    if (t[k]!.kind !== 'punct') continue;
    if (pairs[x]) stack.push(pairs[x]!);
    else if (x === ')' || x === ']' || x === '}') {
      stack.pop();
      if (stack.length === 0) return k;
    }
  }
  throw new Error(`unbalanced at line ${t[open]!.line}`);
}

/** The attributes at `p` (`#[...]`): the index after them, whether all cfgs hold, and whether one is #[test]. */
function attributes(t: Tok[], p: number): { next: number; enabled: boolean; isTest: boolean; ignored: boolean } {
  let enabled = true;
  let isTest = false;
  let ignored = false;
  while (t[p]?.text === '#' && t[p + 1]?.text === '[') {
    const close = matching(t, p + 1);
    const name = t[p + 2]!.text;
    if (name === 'cfg') enabled = enabled && evalCfg(t.slice(p + 4, close - 1));
    if (name === 'test') isTest = true;
    if (name === 'ignore') ignored = true;
    p = close + 1;
  }
  return { next: p, enabled, isTest, ignored };
}

const READ_ONLY_ENGINE_METHODS = new Set([
  'eval',
  'eval_expression',
  'run',
  'compile',
  'compile_expression',
  'eval_with_scope',
  'eval_expression_with_scope',
  'run_with_scope',
  'compile_with_scope',
  'eval_ast',
  'eval_ast_with_scope',
  'run_ast',
  'run_ast_with_scope',
  'call_fn',
  'call_fn_with_options',
  'parse_json',
  'compile_expression_with_scope',
  'compact_script',
  'optimize_ast',
  'gen_fn_signatures',
  'max_call_levels',
  'max_operations',
  'module_resolver',
  'compile_into_self_contained',
  'clone',
  'borrow',
  'lex',
]);

/** Why an engine stopped being a plain `Engine::new()`: the first mutating method called on it. */
function mutationReason(method: string): string {
  if (/^register_(fn|raw_fn|result_fn|get|set|get_set|indexer|iterator|native)/.test(method) || method === 'build_type')
    return 'Rust-registered functions or types';
  if (/^register_type/.test(method)) return 'Rust-registered functions or types';
  if (/module/.test(method)) return 'modules registered from Rust';
  if (/custom_syntax|custom_operator/.test(method)) return 'custom syntax or operators';
  if (/^on_/.test(method) || method === 'register_debugger') return 'engine callbacks (on_print, on_var, ...)';
  return 'engine options (limits, optimizer, language switches)';
}

class FileWalker {
  private readonly plain = new Map<string, string | null>(); // engine name -> null (plain) or the reason it is not
  private readonly aliases = new Map<string, Tok[]>(); // `let script = ".."`, `let result = engine.eval(..)`
  private readonly raw = new Set<string>(); // engines made by Engine::new_raw()
  private test = '';

  constructor(
    private readonly file: string,
    private readonly t: Tok[],
    private readonly out: Found,
  ) {}

  private exclude(reason: string, n = 1): void {
    this.out.excluded.set(reason, (this.out.excluded.get(reason) ?? 0) + n);
  }

  walkFile(): void {
    const t = this.t;
    let p = 0;
    // `#![cfg(...)]` at the top of a file gates the whole file.
    let fileEnabled = true;
    while (t[p]?.text === '#' && t[p + 1]?.text === '!') {
      const close = matching(t, p + 2);
      if (t[p + 3]!.text === 'cfg') fileEnabled = fileEnabled && evalCfg(t.slice(p + 5, close - 1));
      p = close + 1;
    }
    while (p < t.length) {
      const attrs = attributes(t, p);
      p = attrs.next;
      if (t[p]?.text === 'fn' || (t[p]?.text === 'pub' && t[p + 1]?.text === 'fn')) {
        if (t[p]!.text === 'pub') p++;
        const name = t[p + 1]!.text;
        let q = p;
        while (t[q]!.text !== '{') q++;
        const close = matching(t, q);
        if (attrs.isTest) {
          const n = countAssertions(t.slice(q, close + 1));
          if (!fileEnabled || !attrs.enabled) this.exclude('needs a non-default feature (cfg)', n);
          else if (attrs.ignored) this.exclude('#[ignore] test', n);
          else {
            this.test = name;
            this.plain.clear();
            this.raw.clear();
            this.aliases.clear();
            this.block(q, close);
          }
        }
        p = close + 1;
        continue;
      }
      // Any other item (use, struct, impl, mod, const): skip to its end.
      if (p >= t.length) break;
      if (t[p]!.text === 'const' && t[p + 2]?.text === ':' && t[p + 4]?.text === '=') {
        const value = t
          .slice(
            p + 5,
            t.findIndex((x, j) => j > p && x.text === ';'),
          )
          .map((x) => x.text)
          .join('');
        if (/^-?[\d_.]+(e-?\d+)?$/.test(value)) this.consts.set(t[p + 1]!.text, Number(value.replace(/_/g, '')));
        else if (/^(FLOAT|f64)::EPSILON$/.test(value)) this.consts.set(t[p + 1]!.text, Number.EPSILON);
      }
      let q = p;
      while (q < t.length && t[q]!.text !== ';' && t[q]!.text !== '{') q++;
      p = t[q]?.text === '{' ? matching(t, q) + 1 : q + 1;
    }
  }

  /** The statements between `{` at open and `}` at close. */
  private block(open: number, close: number): void {
    const t = this.t;
    let p = open + 1;
    while (p < close) {
      const attrs = attributes(t, p);
      p = attrs.next;
      if (p >= close) break;
      const end = this.statementEnd(p, close);
      const range = t.slice(p, end + 1);
      if (!attrs.enabled) this.exclude('needs a non-default feature (cfg)', countAssertions(range));
      else if (t[p]!.text === '{') this.block(p, end);
      else if (t[p]!.text === 'if' && this.ifLetError(range)) {
        // its assertions became cases
      } else if (['for', 'while', 'loop', 'if', 'match'].includes(t[p]!.text)) {
        this.noteMutations(range);
        this.exclude('inside a Rust loop or condition (cases built at run time)', countAssertions(range));
      } else this.statement(range);
      p = end + 1;
    }
  }

  /** Index of the last token of the statement starting at p. */
  private statementEnd(p: number, limit: number): number {
    const t = this.t;
    if (t[p]!.text === '{') return matching(t, p);
    if (['for', 'while', 'loop', 'if', 'match'].includes(t[p]!.text)) {
      let q = p;
      while (t[q]!.text !== '{') q++;
      let end = matching(t, q);
      while (t[end + 1]?.text === 'else') {
        q = end + 2;
        while (t[q]!.text !== '{') q++;
        end = matching(t, q);
      }
      return t[end + 1]?.text === ';' ? end + 1 : end;
    }
    let q = p;
    // An item inside the function (`struct`, `impl`, `fn`, ...) ends at its body's `}` (or a `;`).
    const item = ['struct', 'enum', 'impl', 'fn', 'trait', 'mod', 'pub'].includes(t[p]!.text);
    while (q < limit) {
      const x = t[q]!;
      if (item && x.text === '{') return matching(t, q);
      if (x.kind === 'punct' && (x.text === '(' || x.text === '[' || x.text === '{')) {
        q = matching(t, q) + 1;
        continue;
      }
      if (x.text === ';') return q;
      q++;
    }
    return limit - 1; // a tail expression
  }

  private noteMutations(s: Tok[]): void {
    for (let k = 0; k + 2 < s.length; k++) {
      const name = s[k]!.text;
      if (
        this.plain.has(name) &&
        s[k + 1]!.text === '.' &&
        s[k + 2]!.kind === 'ident' &&
        s[k + 3]?.text !== '.' &&
        !READ_ONLY_ENGINE_METHODS.has(s[k + 2]!.text) &&
        this.plain.get(name) === null
      ) {
        this.plain.set(name, mutationReason(s[k + 2]!.text));
      }
    }
  }

  private statement(s: Tok[]): void {
    const text = (k: number): string => s[k]?.text ?? '';
    if (text(0) === 'let') {
      const nameAt = text(1) === 'mut' ? 2 : 1;
      const name = text(nameAt);
      // `let [mut] engine = Engine::new();`
      if (text(nameAt + 1) === '=' && text(nameAt + 2) === 'Engine' && text(nameAt + 3) === '::') {
        const ctor = text(nameAt + 4);
        const plain = (ctor === 'new' || ctor === 'new_raw') && text(nameAt + 7) === ';';
        this.plain.set(name, plain ? null : `not Engine::new() (Engine::${ctor})`);
        if (plain && ctor === 'new_raw') this.raw.add(name);
        else this.raw.delete(name);
        this.aliases.delete(name);
        return;
      }
      // `let script = "...";` and `let result = engine.eval::<T>("...");` (unwrapped later)
      if (text(nameAt + 1) === '=' && name !== '_') {
        const value = s.slice(nameAt + 2, s[s.length - 1]!.text === ';' ? -1 : undefined);
        if (value.length === 1 && value[0]!.kind === 'str') {
          this.aliases.set(name, value);
          return;
        }
        if (
          this.plain.has(value[0]?.text ?? '') &&
          value[1]?.text === '.' &&
          !value.some((x) => x.text === 'unwrap' || x.text === 'expect')
        ) {
          this.noteMutations(s);
          this.aliases.set(name, value);
          return;
        }
        // `let x = engine.eval::<Map>("..").unwrap();` (its entries compared later) and
        // `let e = *engine.eval::<T>("..").unwrap_err();` (matched by an `if let` later)
        const held = value[0]?.text === '*' ? value.slice(1) : value;
        if (
          this.plain.get(held[0]?.text ?? '') === null &&
          held[1]?.text === '.' &&
          ['eval', 'eval_expression'].includes(held[2]?.text ?? '') &&
          ['unwrap', 'unwrap_err'].includes(held[held.length - 3]?.text ?? '') &&
          held[held.length - 1]?.text === ')'
        ) {
          this.aliases.set(name, held);
          return;
        }
        this.aliases.delete(name);
      }
    }
    this.noteMutations(s);
    const n = countAssertions(s);
    if (n === 0) return;
    const result = this.assertion(this.expandAliases(s));
    if (typeof result === 'string') {
      this.exclude(result, n);
      if (this.out.show !== undefined && result.includes(this.out.show)) {
        console.log(
          `${this.file}:${s[0]!.line}  ${s
            .slice(0, 14)
            .map((x) => x.value ?? x.text)
            .join(' ')
            .replace(/\s+/g, ' ')
            .slice(0, 140)}`,
        );
      }
    } else this.out.cases.push(...result);
  }

  /** Replaces a variable holding a script literal or an engine call's result by what it holds. */
  private expandAliases(s: Tok[]): Tok[] {
    const out: Tok[] = [];
    for (let k = 0; k < s.length; k++) {
      const alias = this.aliases.get(s[k]!.text);
      const isValue =
        s[k]!.kind === 'ident' && s[k - 1]?.text !== '.' && s[k + 1]?.text !== '(' && s[k + 1]?.text !== '!';
      if (alias && isValue) out.push(...alias);
      else out.push(s[k]!);
    }
    return out;
  }

  /**
   * `if let EvalAltResult::ErrorX(parse_error, pos) = e { assert_eq!(parse_error, ParseErrorType::Y(..));
   * assert_eq!(pos, Position::new(L, C)); } else { panic!(..) }` where `e` holds a plain engine's
   * `.unwrap_err()`: each assertion becomes a case (the error's parse type, its position). False
   * for any other `if`, which is then left out as a Rust condition.
   */
  private ifLetError(s: Tok[]): boolean {
    const text = (k: number): string => s[k]?.text ?? '';
    if (
      text(1) !== 'let' ||
      text(2) !== 'EvalAltResult' ||
      text(3) !== '::' ||
      text(5) !== '(' ||
      text(7) !== ',' ||
      text(9) !== ')' ||
      text(10) !== '=' ||
      text(12) !== '{'
    )
      return false;
    const kind = text(4);
    const [what, where] = [text(6), text(8)];
    const held = this.aliases.get(text(11));
    const call = held && this.engineCall(held);
    if (!call || typeof call === 'string' || !call.error) return false;
    const close = matching(s, 12);
    if (text(close + 1) !== 'else') return false;
    const found: RhaiTestCase[] = [];
    let p = 13;
    while (p < close) {
      let end = p;
      while (end < close && !(s[end]!.text === ';' && depthAt(s, end) === 1)) end++;
      const st = s.slice(p, end + 1);
      const args = st[0]?.text === 'assert_eq' ? splitArgs(st, 2) : [];
      if (args.length !== 2) return false;
      const [left, right] = args as [Tok[], Tok[]];
      const base = {
        file: this.file,
        test: this.test,
        line: st[0]!.line,
        call: call.call,
        script: call.script,
        ...(call.type ? { type: call.type } : {}),
      };
      if (
        left.length === 1 &&
        left[0]!.text === what &&
        right[0]?.text === 'ParseErrorType' &&
        right[1]?.text === '::'
      ) {
        found.push({ ...base, expect: { error: [kind], parse: right[2]!.text } });
      } else if (
        left.length === 1 &&
        left[0]!.text === where &&
        right
          .map((x) => x.text)
          .join('')
          .match(/^Position::new\((\d+),(\d+)\)$/)
      ) {
        const [, l, c] = right
          .map((x) => x.text)
          .join('')
          .match(/^Position::new\((\d+),(\d+)\)$/)!;
        found.push({ ...base, expect: { error: [kind], position: [Number(l), Number(c)] } });
      } else return false;
      p = end + 1;
    }
    this.out.cases.push(...found);
    return found.length > 0;
  }

  /** The case(s) one assertion statement gives, or why it is left out. */
  private assertion(s: Tok[]): RhaiTestCase[] | string {
    const line = s[0]!.line;
    const head = s[0]!.text;
    const made = (call: EngineCall, expect: RhaiTestExpectation): RhaiTestCase[] => {
      const c: RhaiTestCase = { file: this.file, test: this.test, line, call: call.call, script: call.script, expect };
      if (call.type !== undefined) c.type = call.type;
      if (call.key !== undefined) c.key = call.key;
      if (call.raw) c.engine = 'new_raw';
      if (call.rust !== undefined) c.rust = call.rust;
      return [c];
    };
    if (head === 'assert_eq' || head === 'assert_ne') {
      if (head === 'assert_ne') return 'assert_ne (compares with "not this value")';
      const args = splitArgs(s, 2);
      if (args.length < 2) return 'unrecognised assertion form';
      const [left, right] = args as [Tok[], Tok[]];
      const call = this.engineCall(left);
      if (typeof call === 'string') return call;
      if (call.error) {
        // `*engine.compile(..).unwrap_err().err_type()` == ParseErrorType::X(..)
        if (call.projection === 'err_type' && right[0]?.text === 'ParseErrorType') {
          return made(call, { error: ['ErrorParsing'], parse: right[2]!.text });
        }
        if (call.projection === 'to_string' && right.length === 1 && right[0]!.kind === 'str') {
          return made(call, { error: ['*'], message: right[0]!.value! });
        }
        return "compares the error's fields";
      }
      if (call.projection === 'len') {
        const n = literalValue(right, 'INT');
        return typeof n === 'string' ? n : made(call, { length: Number((n as { int: string }).int) });
      }
      const expected = literalValue(right, call.resultType);
      if (typeof expected === 'string') return expected;
      return made(call, { value: expected });
    }
    if (head === 'assert') {
      const inner = s.slice(3, matching(s, 2));
      if (inner[0]?.text === 'matches' && inner[1]?.text === '!') {
        const args = splitArgs(inner, 2);
        const call = this.engineCall(args[0]!);
        if (typeof call === 'string') return call;
        if (!call.error) return 'matches! on a value (not an error)';
        const pattern = errorPattern(args.slice(1).flat());
        return typeof pattern === 'string' ? pattern : made(call, pattern);
      }
      const approx = this.approximate(inner);
      if (approx) return typeof approx === 'string' ? approx : made(approx.call, approx.expect);
      const negated = inner[0]?.text === '!';
      const call = this.engineCall(negated ? inner.slice(1) : inner);
      if (typeof call === 'string') return call;
      if (call.error || call.resultType !== 'bool') return 'assert! on something other than a bool result';
      return made(call, { value: { bool: !negated } });
    }
    if (head === 'let' && s[1]?.text === '_' && s[2]?.text === '=') {
      const call = this.engineCall(s.slice(3, -1));
      if (typeof call === 'string') return call;
      if (!call.error) return made(call, { ok: true });
      return made(call, {
        error: [call.call === 'compile' || call.call === 'compile_expression' ? 'ErrorParsing' : '*'],
      });
    }
    // A bare `engine.eval::<T>("..").unwrap();`: the call succeeds, with a T.
    const bare = this.engineCall(s[s.length - 1]!.text === ';' ? s.slice(0, -1) : s);
    if (typeof bare === 'string') return bare;
    return bare.error ? 'unrecognised assertion form' : made(bare, { ok: true });
  }

  /**
   * `(CALL - EXPECTED).abs() < TOLERANCE`, `CALL.abs() < TOLERANCE` (EXPECTED 0) and `CALL < LIMIT`
   * on a FLOAT result; undefined when `e` has another form.
   */
  private approximate(e: Tok[]): { call: EngineCall; expect: RhaiTestExpectation } | string | undefined {
    const cmpAt = e.findIndex(
      (x, k) => (x.text === '<' || x.text === '<=' || x.text === '>') && e[k - 1]?.text === ')' && depthAt(e, k) === 0,
    );
    if (cmpAt < 0) return undefined;
    const lhs = e.slice(0, cmpAt);
    const rhs = e.slice(cmpAt + 1);
    const absCall = lhs.length > 4 && lhs[lhs.length - 4]!.text === '.' && lhs[lhs.length - 3]!.text === 'abs';
    if (!absCall) {
      const call = this.engineCall(lhs);
      if (typeof call === 'string' || call.error) return undefined;
      const limit = this.floatExpr(rhs);
      if (typeof limit === 'string') return limit;
      return { call, expect: { value: { float: limit }, compare: e[cmpAt]!.text === '>' ? '>' : '<' } };
    }
    const tolerance = this.floatExpr(rhs);
    if (typeof tolerance === 'string') return tolerance;
    let body = lhs.slice(0, -4);
    if (body[0]?.text === '(' && matching(body, 0) === body.length - 1) body = body.slice(1, -1);
    const minusAt = body.findIndex((x, k) => x.text === '-' && depthAt(body, k) === 0 && k > 0);
    const call = this.engineCall(minusAt < 0 ? body : body.slice(0, minusAt));
    if (typeof call === 'string') return call;
    const expected = minusAt < 0 ? 0 : this.floatExpr(body.slice(minusAt + 1));
    if (typeof expected === 'string') return expected;
    return { call, expect: { value: { float: expected }, tolerance } };
  }

  /** A float literal, a file-level `const` holding one, `FLOAT::EPSILON`, or `(A as FLOAT).powf(B)`. */
  private floatExpr(e: Tok[]): number | string {
    let toks = e.filter((x) => x.text !== 'as' && !FLOAT_TYPES.has(x.text));
    if (toks.length === 1 && toks[0]!.kind === 'ident' && this.consts.has(toks[0]!.text))
      return this.consts.get(toks[0]!.text)!;
    const text = toks.map((x) => x.text).join('');
    if (/^(FLOAT|f64)::EPSILON$/.test(e.map((x) => x.text).join(''))) return Number.EPSILON;
    const pow = /^\((-?[\d.]+)\)\.powf\((-?[\d.]+)\)$/.exec(text);
    if (pow) return Math.pow(Number(pow[1]), Number(pow[2]));
    if (/^-?[\d_]+(\.[\d_]*)?([eE][+-]?\d+)?$/.test(text)) return Number(text.replace(/_/g, ''));
    toks = [];
    return 'expected value is not a literal (computed in Rust)';
  }

  /**
   * `engine.parse_json("text", true).unwrap_err()`: the script `parse_json("text")`, as the script
   * function is `Engine::parse_json(text, true)` in a default build (lang_core.rs, `parse_json`).
   */
  private parseJson(rest: Tok[]): EngineCall | string {
    const text = rest.map((x) => (x.kind === 'str' ? '"…"' : x.text)).join('');
    if (text !== '("…",true).unwrap_err()' || rest[1]!.kind !== 'str')
      return 'Engine::parse_json from Rust (a Rust API, not a script)';
    const json = rest[1]!.value!;
    return {
      call: 'eval',
      type: undefined,
      script: `parse_json(${JSON.stringify(json)})`,
      raw: false,
      resultType: '',
      error: true,
      rust: `engine.parse_json(${JSON.stringify(json)}, true)`,
    };
  }

  /** File-level `const NAME: FLOAT = literal;` (tolerances). */
  readonly consts = new Map<string, number>();

  /**
   * `engine.eval::<T>(SCRIPT).unwrap()` and its relatives, with what follows the call: the Rust type
   * the result is compared as, or `error` for `.unwrap_err()` / `.expect_err(..)`.
   */
  private engineCall(e: Tok[]): EngineCall | string {
    let k = 0;
    if (e[k]?.text === '*') k++;
    if (e[k]?.text === '(' && matching(e, k) === e.length - 1) return this.engineCall(e.slice(k + 1, -1));
    const name = e[k]?.text ?? '';
    if (e[k + 1]?.text !== '.') return 'asserts on a Rust value, not on a script result';
    if (!this.plain.has(name)) {
      return /engine/i.test(name)
        ? 'engine made outside the test (helper or shared)'
        : 'asserts on a Rust value, not on a script result';
    }
    const reason = this.plain.get(name);
    if (reason) return reason;
    const method = e[k + 2]!.text;
    if (/scope/.test(method)) return 'uses a Scope filled from Rust';
    if (/ast|call_fn/.test(method)) return 'calls into a compiled AST or function from Rust';
    if (method === 'parse_json') return this.parseJson(e.slice(k + 3));
    if (!['eval', 'run', 'compile', 'eval_expression', 'compile_expression'].includes(method))
      return `engine.${method} from Rust`;
    k += 3;
    let type: string | undefined;
    if (e[k]?.text === '::') {
      const close = closeAngle(e, k + 1);
      type = e
        .slice(k + 2, close)
        .map((x) => x.text)
        .join('')
        .replace(/^rhai::/, '');
      k = close + 1;
    }
    if (e[k]?.text !== '(') return 'unrecognised assertion form';
    const argsClose = matching(e, k);
    const args = e.slice(k + 1, argsClose).filter((x, j, all) => !(x.text === ',' && j === all.length - 1)); // rustfmt's trailing comma
    if (args.length !== 1 || args[0]!.kind !== 'str') {
      return args.length === 1 && args[0]!.kind === 'ident'
        ? 'script held in a Rust variable or built at run time'
        : 'script built at run time (format!, concat)';
    }
    const script = args[0]!.value!;
    k = argsClose + 1;
    const call = method as RhaiTestCase['call'];
    const rest = e
      .slice(k)
      .map((x) => x.text)
      .join('');
    const base = { call, type, script, raw: this.raw.has(name) };
    // What follows the call: .unwrap() / .expect("..") / .unwrap_err() / .expect_err("..") and projections.
    const unwrapErr = /^\.(unwrap_err\(\)|expect_err\([^)]*\))(.*)$/.exec(
      e
        .slice(k)
        .map((x) => (x.kind === 'str' ? '"…"' : x.text))
        .join(''),
    );
    if (unwrapErr) {
      const more = unwrapErr[2]!;
      if (more === '') return { ...base, resultType: '', error: true };
      if (more === '.err_type()' || more === '.0')
        return { ...base, resultType: '', error: true, projection: 'err_type' };
      if (more === '.to_string()') return { ...base, resultType: '', error: true, projection: 'to_string' };
      return "compares the error's fields";
    }
    const unwrap = /^\.(unwrap\(\)|expect\([^)]*\))(.*)$/.exec(
      e
        .slice(k)
        .map((x) => (x.kind === 'str' ? '"…"' : x.text))
        .join(''),
    );
    if (!unwrap)
      return rest === '' ? 'asserts only that the script runs (no value compared)' : 'unrecognised assertion form';
    const more = unwrap[2]!;
    if (more === '') return { ...base, resultType: call === 'run' ? '()' : (type ?? ''), error: false };
    const typed = /^\.into_typed_array::<(\w+)>\(\)\.unwrap\(\)$/.exec(more);
    if (typed) return { ...base, resultType: `array<${typed[1]}>`, error: false };
    if (more === '.into_iter().map(|v|v.as_int().unwrap()).collect::<Vec<_>>()')
      return { ...base, resultType: 'array<INT>', error: false };
    if ((more === '.to_string()' || more === '.as_str()') && type && STRING_TYPES.has(type))
      return { ...base, resultType: type, error: false };
    if (more === '.len()' && type && ['Map', 'Array', 'Blob', 'String'].includes(type))
      return { ...base, resultType: type, error: false, projection: 'len' };
    // `x["a"].as_int().unwrap()` on a Map result: the entry, compared as that type
    const entry = /^\["…"\]\.(?:as_(int|bool)\(\)\.unwrap\(\)|clone_cast::<(\w+)>\(\))$/.exec(more);
    if (entry && type === 'Map') {
      const open = e.findIndex((x, j) => j >= k && x.text === '[');
      return {
        ...base,
        resultType: entry[1] === 'int' ? 'INT' : entry[1] === 'bool' ? 'bool' : entry[2]!,
        error: false,
        key: e[open + 1]!.value!,
      };
    }
    return `compares a Rust-side projection of the result (${more.slice(0, 40)})`;
  }
}

interface EngineCall {
  call: RhaiTestCase['call'];
  type: string | undefined;
  script: string;
  /** The Rust type the result is compared as (`array<INT>` after into_typed_array). */
  resultType: string;
  /** `.unwrap_err()` / `.expect_err(..)`: the run must fail. */
  error: boolean;
  /** `err_type` (the ParseErrorType), `to_string` (the message), `len` (the result's length). */
  projection?: 'err_type' | 'to_string' | 'len';
  /** The result map's entry compared (`x["a"]`). */
  key?: string;
  /** The engine is an `Engine::new_raw()`. */
  raw: boolean;
  /** The Rust call the script stands for (`engine.parse_json(..)`). */
  rust?: string;
}

/** How deeply the token at k is nested in brackets within e. */
function depthAt(e: Tok[], k: number): number {
  let depth = 0;
  for (let j = 0; j < k; j++) {
    const x = e[j]!;
    if (x.kind !== 'punct') continue;
    if (x.text === '(' || x.text === '[' || x.text === '{') depth++;
    else if (x.text === ')' || x.text === ']' || x.text === '}') depth--;
  }
  return depth;
}

const STRING_TYPES = new Set(['String', 'ImmutableString', '&str']);

/** The index of the `>` closing the `<` at `open` (`>>` closes two). */
function closeAngle(e: Tok[], open: number): number {
  let depth = 0;
  for (let q = open; q < e.length; q++) {
    const x = e[q]!.text;
    if (x === '<') depth++;
    else if (x === '>') depth--;
    else if (x === '>>') depth -= 2;
    if (depth <= 0) return q;
  }
  throw new Error('unclosed <');
}

/** Top-level comma-separated arguments of the macro call whose `(` is at `open`. */
function splitArgs(s: Tok[], open: number): Tok[][] {
  const close = matching(s, open);
  const args: Tok[][] = [];
  let cur: Tok[] = [];
  for (let k = open + 1; k < close; k++) {
    const x = s[k]!;
    if (x.kind === 'punct' && (x.text === '(' || x.text === '[' || x.text === '{')) {
      const m = matching(s, k);
      cur.push(...s.slice(k, m + 1));
      k = m;
      continue;
    }
    if (x.text === ',') {
      args.push(cur);
      cur = [];
      continue;
    }
    cur.push(x);
  }
  if (cur.length) args.push(cur);
  return args;
}

function countAssertions(s: Tok[]): number {
  let n = 0;
  for (let k = 0; k < s.length; k++) {
    const x = s[k]!.text;
    if ((x === 'assert_eq' || x === 'assert' || x === 'assert_ne') && s[k + 1]?.text === '!') n++;
    else if (
      x === 'let' &&
      s[k + 1]?.text === '_' &&
      s[k + 2]?.text === '=' &&
      s.slice(k, k + 40).some((y) => y.text === 'unwrap_err' || y.text === 'expect_err')
    )
      n++;
    else if (isBareCall(s, k)) n++;
  }
  return n;
}

/** A statement that is only `engine.eval::<T>("..").unwrap();` (or run / compile / expect). */
function isBareCall(s: Tok[], k: number): boolean {
  const before = s[k - 1]?.text;
  if (k > 0 && before !== ';' && before !== '{' && before !== '}' && before !== ']') return false;
  if (
    s[k]!.kind !== 'ident' ||
    s[k + 1]?.text !== '.' ||
    !/^(eval|run|compile|eval_expression|compile_expression)$/.test(s[k + 2]?.text ?? '')
  )
    return false;
  for (let j = k; j < s.length && s[j]!.text !== ';'; j++)
    if (s[j]!.text === 'unwrap' || s[j]!.text === 'expect') return true;
  return false;
}

/** `EvalAltResult::ErrorX(..) | EvalAltResult::ErrorY(..) [if guard]` -> the variants. */
function errorPattern(p: Tok[]): RhaiTestCase['expect'] | string {
  const error: string[] = [];
  let parse: string | undefined;
  let k = 0;
  // `ParseError(x, ..) if *x == ParseErrorType::WrongExport`
  if (p[0]?.text === 'ParseError' && p[1]?.text === '(') {
    const named = p.findIndex((x, j) => x.text === 'ParseErrorType' && p[j + 1]?.text === '::');
    return named < 0 ? { error: ['ErrorParsing'] } : { error: ['ErrorParsing'], parse: p[named + 2]!.text };
  }
  while (k < p.length) {
    if (p[k]!.text === 'if') break;
    if ((p[k]!.text === 'EvalAltResult' || p[k]!.text === 'ParseErrorType') && p[k + 1]?.text === '::') {
      if (p[k]!.text === 'ParseErrorType') {
        parse = p[k + 2]!.text;
        error.push('ErrorParsing');
      } else error.push(p[k + 2]!.text);
      k += 3;
      continue;
    }
    k++;
  }
  if (error.length === 0) return 'unrecognised error pattern';
  // A guard like `if matches!(*err, EvalAltResult::ErrorRuntime(..))` names the wrapped error.
  const guard = p.slice(k);
  const inner = [
    ...new Set(
      guard.flatMap((x, j) => (x.text === 'EvalAltResult' && guard[j + 1]?.text === '::' ? [guard[j + 2]!.text] : [])),
    ),
  ];
  const out: { error: string[]; inner?: string[]; parse?: string } = { error: [...new Set(error)] };
  if (inner.length && error.includes('ErrorInFunctionCall')) out.inner = inner;
  if (parse) out.parse = parse;
  return out;
}

// ---- expected values ---------------------------------------------------------------------------

const INT_TYPES = new Set(['INT', 'i64', 'i32', 'u64', 'u32', 'usize', 'u8', 'i8', 'u16', 'i16']);
const FLOAT_TYPES = new Set(['FLOAT', 'f64', 'f32']);

/** A Rust literal expression as the value of type `type` (`array<INT>` for into_typed_array). */
function literalValue(e: Tok[], type: string): Expected | string {
  let toks = e;
  // `if cfg!(feature = "x") { A } else { B }`: the branch the default build takes.
  if (toks[0]?.text === 'if' && toks[1]?.text === 'cfg' && toks[2]?.text === '!') {
    const cond = evalCfg(toks.slice(4, matching(toks, 3)));
    const thenOpen = matching(toks, 3) + 1;
    const thenClose = matching(toks, thenOpen);
    const elseOpen = thenClose + 2;
    return literalValue(
      cond ? toks.slice(thenOpen + 1, thenClose) : toks.slice(elseOpen + 1, matching(toks, elseOpen)),
      type,
    );
  }
  // `"text".as_bytes()` as a BLOB: the text's UTF-8 bytes.
  if (type === 'Blob' && toks.length === 5 && toks[0]!.kind === 'str' && toks[2]!.text === 'as_bytes') {
    return { blob: [...new TextEncoder().encode(toks[0]!.value!)] };
  }
  // `x as INT`, `x.to_string()`, `String::from(x)`, `x.into()`: the literal is the same value.
  const asAt = toks.findIndex((x) => x.text === 'as');
  if (asAt > 0) toks = toks.slice(0, asAt);
  if (toks[0]?.text === '&') toks = toks.slice(1);
  if (
    toks.length >= 4 &&
    toks[toks.length - 1]!.text === ')' &&
    toks[toks.length - 2]!.text === '(' &&
    toks[toks.length - 4]!.text === '.' &&
    ['to_string', 'into', 'to_owned'].includes(toks[toks.length - 3]!.text)
  )
    toks = toks.slice(0, -4);
  if ((toks[0]?.text === 'String' || toks[0]?.text === 'ImmutableString') && toks[2]?.text === 'from')
    toks = toks.slice(4, -1);
  if (toks[0]?.text === 'vec' && toks[1]?.text === '!') toks = toks.slice(2);
  const array = /^array<(\w+)>$/.exec(type);
  if (array || type === 'Blob') {
    if (toks[0]?.text !== '[' || matching(toks, 0) !== toks.length - 1)
      return 'expected value is not a literal (computed in Rust)';
    const items: Expected[] = [];
    for (const item of splitArgs(toks, 0)) {
      const v = literalValue(item, array ? array[1]! : 'u8');
      if (typeof v === 'string') return v;
      items.push(v);
    }
    if (type === 'Blob') return { blob: items.map((x) => Number((x as { int: string }).int)) };
    return { array: items };
  }
  const textOf = toks.map((x) => x.text).join('');
  if (toks.length === 1 && toks[0]!.kind === 'str' && STRING_TYPES.has(type)) return { string: toks[0]!.value! };
  if (toks.length === 1 && toks[0]!.kind === 'char' && type === 'char') return { char: toks[0]!.value! };
  if ((textOf === 'true' || textOf === 'false') && type === 'bool') return { bool: textOf === 'true' };
  if (textOf === '()' && (type === '()' || type === '')) return { unit: true };
  if (INT_TYPES.has(type)) {
    const m = /^(-?)(0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9_]+)([iu](8|16|32|64|128|size))?$/.exec(textOf);
    // A literal beyond i64 can only stand for an INT through `as INT` (`0xffff..._u64 as INT`): its bits.
    if (m) return { int: BigInt.asIntN(64, BigInt(m[1]! + m[2]!.replace(/_/g, ''))).toString() };
    const named = /^(INT|i64)::(MAX|MIN)$/.exec(textOf);
    if (named) return { int: (named[2] === 'MAX' ? 9223372036854775807n : -9223372036854775808n).toString() };
    return 'expected value is not a literal (computed in Rust)';
  }
  if (FLOAT_TYPES.has(type)) {
    const m = /^-?[0-9_]+(\.[0-9_]*)?([eE][+-]?[0-9_]+)?(f32|f64)?$/.exec(textOf);
    if (m) return { float: Number(textOf.replace(/_/g, '').replace(/f(32|64)$/, '')) };
    return 'expected value is not a literal (computed in Rust)';
  }
  if (type === 'Dynamic' || type === '') return 'compares a Dynamic from Rust (no literal type)';
  return 'expected value is not a literal (computed in Rust)';
}

// ---- main --------------------------------------------------------------------------------------

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

function main(): void {
  const argv = process.argv.slice(2);
  const opt = (name: string): string => {
    const at = argv.indexOf(name);
    if (at < 0 || !argv[at + 1])
      throw new Error(`usage: extract.ts --git-dir DIR --commit SHA [--out FILE] [--show REASON]`);
    return argv[at + 1]!;
  };
  const gitDir = opt('--git-dir');
  const commit = git(gitDir, 'rev-parse', opt('--commit')).trim();
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? argv[outAt + 1]! : new URL('./cases.json', import.meta.url).pathname;
  const cargo = git(gitDir, 'show', `${commit}:Cargo.toml`);
  const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)![1]!;
  const files = git(gitDir, 'ls-tree', '--name-only', commit, 'tests/')
    .split('\n')
    .filter((f) => /^tests\/[^/]+\.rs$/.test(f));
  const showAt = argv.indexOf('--show');
  const found: Found = { cases: [], excluded: new Map(), ...(showAt >= 0 ? { show: argv[showAt + 1] ?? '' } : {}) };
  for (const file of files) new FileWalker(file, lexRust(git(gitDir, 'show', `${commit}:${file}`)), found).walkFile();
  const excluded = Object.fromEntries([...found.excluded].sort((a, b) => b[1] - a[1]));
  const result: RhaiTestsFile = {
    source: {
      repository: 'https://github.com/rhaiscript/rhai',
      commit,
      version,
      license: 'MIT OR Apache-2.0',
      files: new Set(found.cases.map((c) => c.file)).size,
    },
    excluded,
    cases: found.cases,
  };
  writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
  const total = found.cases.length + Object.values(excluded).reduce((a, b) => a + b, 0);
  console.log(
    `${files.length} test files, ${total} assertions: ${found.cases.length} kept from ${result.source.files} files`,
  );
  for (const [reason, n] of Object.entries(excluded)) console.log(`  ${String(n).padStart(4)}  ${reason}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) main();
