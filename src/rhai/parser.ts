// Rhai parser (src/parser.rs): tokens -> AST, rejecting at parse time what Rhai rejects at parse
// time. Variables are resolved to frame slots and closure captures afterwards, by resolver.ts.
import type { Expr, FnDef, Script, Stmt, SwitchCase, VarDecl } from './ast.ts';
import { isJsStackOverflow, parseError, type Pos } from './errors.ts';
import { Lexer, RESERVED, type Token } from './lexer.ts';
import { resolveScript } from './resolver.ts';
import {
  isInt,
  makeChar,
  MAX_INT,
  MIN_INT,
  normInt,
  RhaiChar,
  RhaiFloat,
  RhaiRange,
  type RhaiValue,
} from './values.ts';

const PRECEDENCE: Record<string, number> = {
  '||': 30,
  '|': 30,
  '^': 30,
  '&&': 60,
  '&': 60,
  '==': 90,
  '!=': 90,
  in: 110,
  '!in': 110,
  '<': 130,
  '<=': 130,
  '>': 130,
  '>=': 130,
  '??': 135,
  '..': 140,
  '..=': 140,
  '+': 150,
  '-': 150,
  '*': 180,
  '/': 180,
  '%': 180,
  '**': 190,
  '<<': 210,
  '>>': 210,
};

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '&=', '|=', '^=', '??=']);

/** Tokens after which `..` / `..=` has no end: `a..]`, `(..)`, `s[..=]`, `f(1..,`, `x..;`, `5.. =>`. */
const OPEN_RANGE_CLOSERS = new Set([']', ')', '}', ',', ';', '=>']);

/** Statements that end in `}` and need no `;` after them. */
const SELF_TERMINATED = new Set(['if', 'switch', 'while', 'for', 'block', 'try', 'loop']);

export interface ParseLimits {
  maxExprDepth: number;
  maxFunctionExprDepth: number;
}

/**
 * `script`: statements and functions (Rhai's `Engine::compile`). `expression`: one expression
 * (`Engine::compile_expression`): no statements, no statement blocks or loops used as values, and
 * every `if`/closure body and switch case holds a single expression.
 */
export type ParseMode = 'script' | 'expression';

/**
 * Each operator of a chain like `1 + 1 + ...`, and each link of a chain like `x.abs().abs()...`,
 * nests the tree one level deeper, and compiling and running it recurses that deep: beyond this
 * the JS stack would overflow (Rhai itself has no cap).
 */
export const MAX_OPERATOR_CHAIN = 1000;

/** Parses and resolves a script: the AST the evaluator compiles. */
export function parse(source: string, limits: ParseLimits, mode: ParseMode = 'script'): Script {
  return resolveScript(parseSyntax(source, limits, mode));
}

/** The AST as parsed, before resolver.ts gives variables their slots and references. */
export function parseSyntax(source: string, limits: ParseLimits, mode: ParseMode = 'script'): Script {
  const parser = new Parser(Lexer.tokenize(source), limits, mode === 'expression');
  try {
    return mode === 'expression' ? parser.parseExpressionScript() : parser.parseScript();
  } catch (e) {
    if (isJsStackOverflow(e)) throw parseError('Expression is nested too deeply to parse', parser.position());
    throw e;
  }
}

class Parser {
  private p = 0;
  private loopDepth = 0;
  private inFunction = false;
  private catchVars: VarDecl[] = [];
  private depth = 0;
  private noPipe = false;
  private closureCount = 0;
  /** `export let x = ..` is the `let` then this `export x`, added after it. */
  private pendingExport: Stmt | null = null;
  private readonly functions: FnDef[] = [];
  private readonly fnKeys = new Set<string>();

  constructor(
    private toks: Token[],
    private readonly limits: ParseLimits,
    private readonly expressionOnly = false,
  ) {}

  // ---- token helpers ----
  private get tok(): Token {
    return this.toks[this.p]!;
  }
  private peekTok(n = 1): Token {
    return this.toks[Math.min(this.p + n, this.toks.length - 1)]!;
  }
  private is(text: string): boolean {
    const t = this.tok;
    return (t.type === 'punct' || t.type === 'keyword') && t.text === text;
  }
  /** Where parsing has got to (for errors the parser cannot place itself). */
  position(): Pos {
    return this.tok.pos;
  }
  private atEof(): boolean {
    return this.tok.type === 'eof';
  }
  private eat(text: string): boolean {
    if (this.is(text)) {
      this.p++;
      return true;
    }
    return false;
  }
  private expect(text: string, context: string): Token {
    if (!this.is(text)) throw parseError(`Expecting '${text}' ${context}, found ${describe(this.tok)}`, this.tok.pos);
    return this.toks[this.p++]!;
  }
  private identName(context: string): Token {
    const t = this.tok;
    if (t.type !== 'ident') {
      if (t.type === 'keyword') throw parseError(`'${t.text}' is a keyword and cannot be used as ${context}`, t.pos);
      throw parseError(`Expecting a name for ${context}, found ${describe(t)}`, t.pos);
    }
    if (RESERVED.has(t.text)) throw parseError(`'${t.text}' is a reserved keyword`, t.pos);
    this.p++;
    return t;
  }

  private enterDepth(pos: Pos): void {
    const max = this.inFunction ? this.limits.maxFunctionExprDepth : this.limits.maxExprDepth;
    if (++this.depth > max && max > 0) throw parseError('Expression exceeds maximum complexity', pos);
  }

  /** A declaration; resolver.ts gives it its slot. */
  private declare(name: string, isConst: boolean): VarDecl {
    return { name, slot: -1, isConst, captured: false };
  }

  // ---- script and functions ----
  parseScript(): Script {
    const body: Stmt[] = [];
    while (this.tok.type !== 'eof') {
      if (this.is('fn') || (this.is('private') && this.peekTok().text === 'fn')) {
        this.parseFnDef();
        continue;
      }
      const from = body.length;
      this.parseStmtInto(body, true);
      // Only a constant at scope level 0 is a global constant (Rhai's eval Stmt::Var).
      for (const s of body.slice(from)) if (s.kind === 'let' && s.decl.isConst) s.global = true;
    }
    return { body, slotCount: 0, functions: this.functions };
  }

  /** Rhai's parse_global_expr: one expression, then the end of the script. */
  parseExpressionScript(): Script {
    const pos = this.tok.pos;
    const expr = this.parseExpr();
    if (!this.atEof()) throw parseError(`Unexpected ${describe(this.tok)} after the expression`, this.tok.pos);
    return { body: [{ kind: 'expr', pos, expr }], slotCount: 0, functions: this.functions };
  }

  private parseFnDef(): void {
    const start = this.tok.pos;
    const isPrivate = this.eat('private');
    this.expect('fn', 'to define a function');
    const nameTok = this.identName('a function');
    const outerLoop = this.loopDepth;
    const outerCatch = this.catchVars;
    const outerDepth = this.depth;
    this.inFunction = true;
    this.loopDepth = 0;
    this.catchVars = [];
    this.depth = 0;
    try {
      this.expect('(', 'after the function name');
      const params = this.parseParams(')', 'function parameter');
      const key = `${nameTok.text}/${params.length}`;
      if (this.fnKeys.has(key))
        throw parseError(
          `Function '${nameTok.text}' with ${params.length} parameter(s) is already defined`,
          nameTok.pos,
        );
      this.fnKeys.add(key);
      if (!this.is('{'))
        throw parseError(`Expecting '{' to start the body of function '${nameTok.text}'`, this.tok.pos);
      const body = this.parseBlockBody();
      this.functions.push({
        name: nameTok.text,
        params,
        body,
        slotCount: 0,
        pos: start,
        captures: [],
        isClosure: false,
        private: isPrivate,
      });
    } finally {
      this.inFunction = false;
      this.loopDepth = outerLoop;
      this.catchVars = outerCatch;
      this.depth = outerDepth;
    }
  }

  private parseParams(close: string, what: string): VarDecl[] {
    const params: VarDecl[] = [];
    const seen = new Set<string>();
    while (!this.eat(close)) {
      const t = this.identName(`a ${what}`);
      if (seen.has(t.text)) throw parseError(`Duplicated parameter '${t.text}'`, t.pos);
      seen.add(t.text);
      params.push(this.declare(t.text, false));
      if (!this.eat(',')) {
        this.expect(close, `to close the ${what} list`);
        break;
      }
    }
    return params;
  }

  private parseClosure(): Expr {
    const pos = this.tok.pos;
    const outerLoop = this.loopDepth;
    const outerCatch = this.catchVars;
    this.loopDepth = 0;
    this.catchVars = [];
    try {
      let params: VarDecl[] = [];
      if (!this.eat('||')) {
        this.expect('|', 'to start a closure');
        params = this.parseParams('|', 'closure parameter');
      }
      const body: Stmt[] = [];
      if (this.is('{')) body.push({ kind: 'expr', pos: this.tok.pos, expr: this.parseBlockExpr() });
      else body.push(this.parseSimpleStmt());
      const fn: FnDef = {
        name: `anon$${++this.closureCount}`,
        params,
        body,
        slotCount: 0,
        pos,
        captures: [],
        isClosure: true,
      };
      return { kind: 'closure', pos, fn };
    } finally {
      this.loopDepth = outerLoop;
      this.catchVars = outerCatch;
    }
  }

  // ---- statements ----
  private parseBlockBody(): Stmt[] {
    const open = this.expect('{', 'to start a block');
    this.enterDepth(open.pos);
    try {
      if (this.expressionOnly) {
        // DISALLOW_STATEMENTS_IN_BLOCKS: the block is one expression
        const pos = this.tok.pos;
        const expr = this.parseExpr();
        this.expect('}', 'to close the block (an expression holds no statements)');
        return [{ kind: 'expr', pos, expr }];
      }
      const body: Stmt[] = [];
      while (!this.eat('}')) {
        if (this.tok.type === 'eof') throw parseError("Expecting '}' to close the block", this.tok.pos);
        this.parseStmtInto(body, false);
      }
      return body;
    } finally {
      this.depth--;
    }
  }

  private parseStmtInto(body: Stmt[], topLevel: boolean): void {
    if (this.eat(';')) return;
    if (this.is('fn') || this.is('private')) {
      throw parseError('Functions can only be defined at the global level', this.tok.pos);
    }
    const [stmt, kind] = this.parseStmt();
    body.push(stmt);
    if (this.pendingExport) {
      body.push(this.pendingExport);
      this.pendingExport = null;
    }
    if (this.eat(';')) return;
    if (SELF_TERMINATED.has(kind)) return;
    if (this.is('}') && !topLevel) return;
    if (this.tok.type === 'eof') return;
    throw parseError(`Expecting ';' to terminate this statement, found ${describe(this.tok)}`, this.tok.pos);
  }

  /** Returns the statement and a kind used for the `;` rule. */
  private parseStmt(): [Stmt, string] {
    const t = this.tok;
    const pos = t.pos;
    if (t.type === 'keyword') {
      switch (t.text) {
        case 'let':
        case 'const':
          return [this.parseLet(), 'let'];
        case 'if':
          return [{ kind: 'expr', pos, expr: this.parseIf() }, 'if'];
        case 'switch':
          return [{ kind: 'expr', pos, expr: this.parseSwitch() }, 'switch'];
        case 'while':
          return [{ kind: 'expr', pos, expr: this.parseWhile() }, 'while'];
        case 'loop':
          return [{ kind: 'expr', pos, expr: this.parseLoop() }, 'loop'];
        case 'do':
          return [{ kind: 'expr', pos, expr: this.parseDo() }, 'do'];
        case 'for':
          return [{ kind: 'expr', pos, expr: this.parseFor() }, 'for'];
        case 'try':
          return [this.parseTry(), 'try'];
        case 'break':
        case 'continue':
          return [this.parseBreak(), 'break'];
        case 'return':
        case 'throw':
          return [this.parseReturn(), 'return'];
        case 'import':
          return [this.parseImport(), 'import'];
        case 'export':
          return [this.parseExport(), 'export'];
      }
    }
    if (this.is('{')) return [{ kind: 'expr', pos, expr: this.parseBlockExpr() }, 'block'];
    return [this.parseSimpleStmt(), 'expr'];
  }

  /** An expression statement or an assignment. */
  private parseSimpleStmt(): Stmt {
    const pos = this.tok.pos;
    const e = this.parseExpr();
    const t = this.tok;
    if (t.type === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.p++;
      this.checkAssignable(e, t.pos);
      const value = this.parseExpr();
      return { kind: 'assign', pos: t.pos, target: e, op: t.text, value };
    }
    return { kind: 'expr', pos, expr: e };
  }

  private checkAssignable(e: Expr, pos: Pos): void {
    let root = e;
    while (root.kind === 'property' || root.kind === 'index') {
      root = root.target;
    }
    if (root.kind === 'var' || root.kind === 'this') return; // a constant target: resolver.ts
    throw parseError('Expecting a variable, property or index as the target of an assignment', pos);
  }

  private parseLet(): Stmt {
    const isConst = this.tok.text === 'const';
    const pos = this.tok.pos;
    this.p++;
    const nameTok = this.identName('a variable');
    const init = this.eat('=') ? this.parseExpr() : null;
    return { kind: 'let', pos, decl: this.declare(nameTok.text, isConst), init };
  }

  /** `import "path" as name;`: the path is any expression giving a string. */
  private parseImport(): Stmt {
    const pos = this.expect('import', '').pos;
    const path = this.parseExpr();
    const alias = this.eat('as') ? this.identName('a module alias').text : null;
    return { kind: 'import', pos, path, alias };
  }

  /**
   * `export name [as alias]`, `export let name = ..`, `export const name = ..`: only at the top level
   * of a script (Rhai's WrongExport), where it makes the variable a variable of the module.
   */
  private parseExport(): Stmt {
    const pos = this.expect('export', '').pos;
    if (this.depth > 0 || this.inFunction) {
      throw parseError('export can only be used at the top level of a script, not inside a block or function', pos);
    }
    if (this.is('let') || this.is('const')) {
      const decl = this.parseLet() as Extract<Stmt, { kind: 'let' }>;
      this.pendingExport = { kind: 'export', pos, name: decl.decl.name, alias: decl.decl.name, ref: null };
      return decl;
    }
    const name = this.identName('a variable to export').text;
    const alias = this.eat('as') ? this.identName('an export alias').text : name;
    return { kind: 'export', pos, name, alias, ref: null };
  }

  private parseBreak(): Stmt {
    const t = this.toks[this.p++]!;
    if (this.loopDepth === 0) throw parseError(`'${t.text}' must be inside a loop`, t.pos);
    if (t.text === 'continue') return { kind: 'continue', pos: t.pos };
    const value = this.atStmtEnd() ? null : this.parseExpr();
    return { kind: 'break', pos: t.pos, value };
  }

  private parseReturn(): Stmt {
    const t = this.toks[this.p++]!;
    const value = this.atStmtEnd() ? null : this.parseExpr();
    if (t.text === 'return') return { kind: 'return', pos: t.pos, value };
    const rethrow = value === null ? (this.catchVars[this.catchVars.length - 1] ?? null) : null;
    return { kind: 'throw', pos: t.pos, value, rethrow };
  }

  private atStmtEnd(): boolean {
    return this.is(';') || this.is('}') || this.is(',') || this.tok.type === 'eof';
  }

  private parseTry(): Stmt {
    const pos = this.expect('try', '').pos;
    const body = this.parseBlockBody();
    this.expect('catch', "after the 'try' block");
    const hidden = this.declare('$caught', false);
    let errVar: VarDecl | null = null;
    if (this.eat('(')) {
      const t = this.identName('the catch variable');
      errVar = this.declare(t.text, false);
      this.expect(')', 'to close the catch variable');
    }
    this.catchVars.push(hidden);
    try {
      const handler = this.parseBlockBody();
      return { kind: 'try', pos, body, errVar, hidden, handler } satisfies Stmt;
    } finally {
      this.catchVars.pop();
    }
  }

  // ---- control-flow expressions ----
  private parseBlockExpr(): Expr {
    const pos = this.tok.pos;
    return { kind: 'block', pos, body: this.parseBlockBody() };
  }

  private parseCondition(what: string): Expr {
    const cond = this.parseExpr();
    if (cond.kind === 'literal' && typeof cond.value !== 'boolean') {
      throw parseError(`Expecting a boolean condition for '${what}'`, cond.pos);
    }
    return cond;
  }

  private parseIf(): Expr {
    const pos = this.expect('if', '').pos;
    const cond = this.parseCondition('if');
    const then = this.parseBlockBody();
    let els: Stmt[] | null = null;
    if (this.eat('else')) {
      if (this.is('if')) {
        const p = this.tok.pos;
        els = [{ kind: 'expr', pos: p, expr: this.parseIf() }];
      } else els = this.parseBlockBody();
    }
    return { kind: 'if', pos, cond, then, else: els };
  }

  /** Parses `body` with `|` read as bit-or (false) or as the switch-case separator (true). */
  private withNoPipe<T>(noPipe: boolean, body: () => T): T {
    const outer = this.noPipe;
    this.noPipe = noPipe;
    try {
      return body();
    } finally {
      this.noPipe = outer;
    }
  }

  private inLoop<T>(body: () => T): T {
    this.loopDepth++;
    try {
      return body();
    } finally {
      this.loopDepth--;
    }
  }

  private parseWhile(): Expr {
    const pos = this.expect('while', '').pos;
    const cond = this.parseCondition('while');
    const body = this.inLoop(() => this.parseBlockBody());
    return { kind: 'while', pos, cond, body };
  }

  private parseLoop(): Expr {
    const pos = this.expect('loop', '').pos;
    const body = this.inLoop(() => this.parseBlockBody());
    return { kind: 'while', pos, cond: null, body };
  }

  private parseDo(): Expr {
    const pos = this.expect('do', '').pos;
    const body = this.inLoop(() => this.parseBlockBody());
    let until: boolean;
    if (this.eat('while')) until = false;
    else if (this.eat('until')) until = true;
    else throw parseError("Expecting 'while' or 'until' after the 'do' block", this.tok.pos);
    const cond = this.parseCondition(until ? 'do ... until' : 'do ... while');
    return { kind: 'do', pos, body, cond, until };
  }

  private parseFor(): Expr {
    const pos = this.expect('for', '').pos;
    let itemName: Token;
    let counterName: Token | null = null;
    if (this.eat('(')) {
      itemName = this.identName('the loop variable');
      this.expect(',', 'between the loop variable and the counter');
      counterName = this.identName('the loop counter');
      this.expect(')', 'to close the loop variables');
    } else itemName = this.identName('the loop variable');
    this.expect('in', "after the 'for' variable");
    const iter = this.parseExpr();
    if (iter.kind === 'literal' && typeof iter.value !== 'string' && !(iter.value instanceof RhaiRange)) {
      throw parseError('This value cannot be iterated in a for loop', iter.pos);
    }
    const item = this.declare(itemName.text, false);
    const counter = counterName ? this.declare(counterName.text, false) : null;
    const body = this.inLoop(() => this.parseBlockBody());
    return { kind: 'for', pos, item, counter, iter, body };
  }

  private parseSwitch(): Expr {
    const pos = this.expect('switch', '').pos;
    const subject = this.parseExpr();
    this.expect('{', 'to start the switch cases');
    const cases: SwitchCase[] = [];
    let dflt: Expr | null = null;
    let sawRange = false;
    while (!this.eat('}')) {
      if (this.tok.type === 'eof') throw parseError("Expecting '}' to close the switch", this.tok.pos);
      if (dflt) throw parseError("The default case '_' must be the last case", this.tok.pos);
      if (this.tok.type === 'ident' && this.tok.text === '_') {
        this.p++;
        this.expect('=>', "after '_'");
        dflt = this.parseSwitchBody();
      } else {
        // As Rhai's parse_switch: values and ranges mix freely (`1 | 5..9 | 'x'`); a number after
        // any range (in this case or an earlier one) could never be reached before it, so is refused.
        const values: RhaiValue[] = [];
        const ranges: RhaiRange[] = [];
        this.withNoPipe(true, () => {
          do {
            const e = this.parseExpr();
            const v = constantValue(e);
            if (v === NOT_CONSTANT) throw parseError('A switch case must be a constant value', e.pos);
            if (v instanceof RhaiRange) {
              sawRange = true;
              if (v.inclusive ? v.start <= v.end : v.start < v.end) ranges.push(v);
            } else if (sawRange && (isInt(v) || v instanceof RhaiFloat)) {
              throw parseError(
                'A number case cannot follow a range case (it would be matched by value first): move it above the ranges',
                e.pos,
              );
            }
            values.push(v);
          } while (this.eat('|'));
        });
        const guard = this.eat('if') ? this.parseExpr() : undefined;
        this.expect('=>', 'after the switch case');
        const body = this.parseSwitchBody();
        cases.push({ values, ranges, guard, body });
      }
      if (this.eat(',')) continue;
      if (this.is('}')) continue;
      if (this.toks[this.p - 1]!.text === '}') continue; // a block body needs no comma
      throw parseError(`Expecting ',' between switch cases, found ${describe(this.tok)}`, this.tok.pos);
    }
    return { kind: 'switch', pos, subject, cases, defaultCase: dflt };
  }

  /** A case body is any statement (`1 => break`, `2 => x += 1`), as in Rhai's parse_switch. */
  private parseSwitchBody(): Expr {
    if (this.expressionOnly) return this.parseExpr();
    if (this.is('{')) return this.parseBlockExpr();
    const [s] = this.parseStmt();
    if (s.kind === 'expr') return s.expr;
    return { kind: 'block', pos: s.pos, body: [s] };
  }

  // ---- expressions ----
  parseExpr(): Expr {
    this.enterDepth(this.tok.pos);
    try {
      return this.parseBinary(1);
    } finally {
      this.depth--;
    }
  }

  private binaryOp(): string | null {
    const t = this.tok;
    if (t.type === 'punct' || (t.type === 'keyword' && t.text === 'in')) {
      if (this.noPipe && t.text === '|') return null;
      return PRECEDENCE[t.text] !== undefined ? t.text : null;
    }
    return null;
  }

  private parseBinary(minPrec: number): Expr {
    let lhs = this.parseUnary();
    const outerDepth = this.depth;
    try {
      for (let operators = 1; ; operators++) {
        const op = this.binaryOp();
        if (!op) return lhs;
        const prec = PRECEDENCE[op]!;
        if (prec < minPrec) return lhs;
        const opTok = this.toks[this.p++]!;
        if (operators > MAX_OPERATOR_CHAIN) {
          throw parseError(
            `More than ${MAX_OPERATOR_CHAIN} operators in one expression; split it into several statements`,
            opTok.pos,
          );
        }
        // As in Rhai's parse_binary_op, every operator of a chain is one level of expression depth.
        this.enterDepth(opTok.pos);
        const rhs = this.operand(op, prec);
        if (op === '&&' || op === '||') {
          ensureBoolOperand(lhs);
          ensureBoolOperand(rhs);
        }
        lhs = { kind: 'binary', pos: opTok.pos, op, left: lhs, right: rhs };
      }
    } finally {
      this.depth = outerDepth;
    }
  }

  /** The right operand of `op`: `x ?? break` takes a statement, `a..` and `..=` at a closer have none. */
  private operand(op: string, prec: number): Expr {
    const t = this.tok;
    if (
      op === '??' &&
      t.type === 'keyword' &&
      (t.text === 'break' || t.text === 'continue' || t.text === 'return' || t.text === 'throw')
    ) {
      const stmt = t.text === 'break' || t.text === 'continue' ? this.parseBreak() : this.parseReturn();
      return { kind: 'block', pos: t.pos, body: [stmt] };
    }
    if ((op === '..' || op === '..=') && t.type === 'punct' && OPEN_RANGE_CLOSERS.has(t.text)) {
      return { kind: 'literal', pos: t.pos, value: undefined }; // `a..` (Rhai: an open end)
    }
    return this.parseBinary(op === '**' ? prec : prec + 1);
  }

  private parseUnary(): Expr {
    const t = this.tok;
    if (t.type === 'punct' && (t.text === '-' || t.text === '+' || t.text === '!')) {
      this.p++;
      this.enterDepth(t.pos);
      try {
        // As in Rhai's parse_unary: the operand includes its postfix chain (`-5.abs()` is
        // `-(5.abs())`), and only a constant result is folded into a negative literal.
        const e = this.parseUnary();
        if (t.text === '-' && e.kind === 'literal') {
          if (typeof e.value === 'number' || typeof e.value === 'bigint')
            return { kind: 'literal', pos: t.pos, value: normInt(-BigInt(e.value)) };
          if (e.value instanceof RhaiFloat) return { kind: 'literal', pos: t.pos, value: new RhaiFloat(-e.value.v) };
        }
        return { kind: 'unary', pos: t.pos, op: t.text, operand: e };
      } finally {
        this.depth--;
      }
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private parseArgs(close: string): Expr[] {
    const args: Expr[] = [];
    this.withNoPipe(false, () => {
      while (!this.eat(close)) {
        args.push(this.parseExpr());
        if (!this.eat(',')) {
          this.expect(close, 'to close the list');
          break;
        }
      }
    });
    return args;
  }

  private parsePostfix(start: Expr): Expr {
    const e = this.parseLinks(start);
    if (sawSafeLink(e)) (e as ChainLink).chain = { guarded: (e as ChainLink).chain?.guarded ?? false, top: true };
    return e;
  }

  /** Properties, method calls and indexes after `e`; each link after a `?.` / `?[` is guarded. */
  private parseLinks(e: Expr): Expr {
    let guarded = false;
    const link = <T extends ChainLink>(x: T): T => {
      if (guarded) x.chain = { guarded: true, top: false };
      if (x.safe) guarded = true;
      return x;
    };
    for (let links = 1; ; links++) {
      const t = this.tok;
      if (t.type !== 'punct') return e;
      // Like an operator chain, each `.name`, `.f()` or `[i]` nests the tree one level deeper.
      if (links > MAX_OPERATOR_CHAIN && (t.text === '.' || t.text === '?.' || t.text === '[' || t.text === '?[')) {
        throw parseError(
          `More than ${MAX_OPERATOR_CHAIN} properties, method calls and indexes in one chain; split it into several statements`,
          t.pos,
        );
      }
      if (t.text === '.' || t.text === '?.') {
        this.p++;
        const safe = t.text === '?.';
        const nameTok = this.tok;
        if (nameTok.type !== 'ident' && nameTok.type !== 'keyword')
          throw parseError(`Expecting a property or method name after '${t.text}'`, nameTok.pos);
        this.p++;
        if (this.is('!') && this.peekTok().text === '(') {
          throw parseError(
            `'${nameTok.text}!' cannot be a method call: a call that sees the caller's variables is written ${nameTok.text}!(...)`,
            this.tok.pos,
          );
        }
        if (this.is('(')) {
          this.p++;
          e = link({
            kind: 'method',
            pos: nameTok.pos,
            target: e,
            name: nameTok.text,
            args: this.parseArgs(')'),
            safe,
          });
        } else {
          // A property of a non-map (`5.a`) parses; it fails at run time with ErrorDotExpr, as in Rhai.
          e = link({ kind: 'property', pos: nameTok.pos, target: e, name: nameTok.text, safe });
        }
        continue;
      }
      if (t.text === '[' || t.text === '?[') {
        this.p++;
        const index = this.withNoPipe(false, () => this.parseExpr());
        this.expect(']', 'to close the index');
        checkLiteralIndex(e, index);
        e = link({ kind: 'index', pos: t.pos, target: e, index, safe: t.text === '?[' });
        continue;
      }
      return e;
    }
  }

  private parsePrimary(): Expr {
    const t = this.tok;
    const pos = t.pos;
    switch (t.type) {
      case 'int':
        this.p++;
        // A decimal literal beyond i64 is read as a float, as Rhai's tokenizer does.
        if (t.int! > MAX_INT || t.int! < MIN_INT)
          return { kind: 'literal', pos, value: new RhaiFloat(Number(t.text.replace(/_/g, ''))) };
        return { kind: 'literal', pos, value: normInt(t.int!) };
      case 'float':
        this.p++;
        return { kind: 'literal', pos, value: new RhaiFloat(t.float!) };
      case 'string':
        this.p++;
        return { kind: 'literal', pos, value: t.text };
      case 'char':
        this.p++;
        return { kind: 'literal', pos, value: makeChar(t.text) };
      case 'template':
        this.p++;
        return this.parseTemplate(t);
      case 'ident':
        return this.parseIdent();
      case 'eof':
        throw parseError('Script is incomplete: expecting an expression', pos);
      case 'keyword':
        switch (t.text) {
          case 'true':
            this.p++;
            return { kind: 'literal', pos, value: true };
          case 'false':
            this.p++;
            return { kind: 'literal', pos, value: false };
          case 'this':
            this.p++;
            return { kind: 'this', pos };
          case 'if':
            return this.parseIf();
          case 'switch':
            return this.parseSwitch();
          case 'while':
          case 'loop':
          case 'do':
          case 'for':
            if (this.expressionOnly) throw parseError(`'${t.text}' loops are not allowed in an expression`, pos);
            return t.text === 'while'
              ? this.parseWhile()
              : t.text === 'loop'
                ? this.parseLoop()
                : t.text === 'do'
                  ? this.parseDo()
                  : this.parseFor();
          case 'global': {
            this.p++;
            this.expect('::', "after 'global'");
            const name = this.identName('a global constant');
            return { kind: 'global', pos, name: name.text };
          }
          case 'fn':
            throw parseError('Functions can only be defined at the global level', pos);
          case 'try':
            throw parseError("'try' is a statement and cannot be used as a value", pos);
        }
        throw parseError(`Unexpected '${t.text}'`, pos);
      case 'punct':
        switch (t.text) {
          case '(': {
            this.p++;
            if (t.unit) {
              this.p++;
              return { kind: 'literal', pos, value: undefined };
            }
            return this.withNoPipe(false, () => {
              const e = this.parseExpr();
              this.expect(')', 'to close the parenthesis');
              return e;
            });
          }
          case '[': {
            this.p++;
            this.enterDepth(pos);
            try {
              return { kind: 'array', pos, items: this.parseArgs(']') };
            } finally {
              this.depth--;
            }
          }
          case '..':
          case '..=': // `..n` is `0..n` (Rhai's parse_primary leaves the `..` to the operator)
            return { kind: 'literal', pos, value: 0 };
          case '#{':
            return this.parseMapLiteral();
          case '{':
            if (this.expressionOnly) throw parseError('A statement block is not allowed in an expression', pos);
            return this.parseBlockExpr();
          case '|':
          case '||':
            return this.parseClosure();
        }
    }
    throw parseError(`Unexpected ${describe(t)}`, pos);
  }

  private parseIdent(): Expr {
    const t = this.toks[this.p++]!;
    if (RESERVED.has(t.text)) throw parseError(`'${t.text}' is a reserved keyword`, t.pos);
    if (this.is('::')) return this.parseNamespaced(t);
    if (this.is('(')) {
      this.p++;
      const args = this.parseArgs(')');
      return { kind: 'call', pos: t.pos, name: t.text, args, visibleVars: [] };
    }
    if (this.is('!') && this.peekTok().text === '(') {
      // `foo!(..)`: the call sees the caller's variables
      this.p += 2;
      const args = this.parseArgs(')');
      return { kind: 'call', pos: t.pos, name: t.text, args, visibleVars: [], bang: true };
    }
    if (t.text === '_') throw parseError("'_' is not a variable", t.pos);
    return { kind: 'var', pos: t.pos, name: t.text, ref: null };
  }

  /** `m::x`, `m::sub::x`, `m::f(args)`: a name inside an imported module. */
  private parseNamespaced(root: Token): Expr {
    const path = [root.text];
    for (;;) {
      this.expect('::', 'in a module path');
      const t = this.identName('a name inside a module');
      if (this.is('::')) {
        path.push(t.text);
        continue;
      }
      if (this.is('(')) {
        this.p++;
        const args = this.parseArgs(')');
        return { kind: 'call', pos: t.pos, name: t.text, args, visibleVars: [], namespace: path };
      }
      return { kind: 'modvar', pos: root.pos, path, name: t.text };
    }
  }

  private parseMapLiteral(): Expr {
    const pos = this.expect('#{', '').pos;
    this.enterDepth(pos);
    try {
      const entries: [string, Expr][] = [];
      const seen = new Set<string>();
      while (!this.eat('}')) {
        const k = this.tok;
        let key: string;
        if (k.type === 'string') key = k.text;
        else if (k.type === 'template') {
          const parts = k.parts!;
          if (parts.length !== 1) throw parseError('A property name cannot use string interpolation', k.pos);
          key = parts[0] as string;
        } else if (k.type === 'ident') {
          if (k.text.startsWith('_'))
            throw parseError(`Invalid property name '${k.text}' (quote it as a string)`, k.pos);
          key = k.text;
        } else throw parseError(`Expecting a property name in the object map, found ${describe(k)}`, k.pos);
        this.p++;
        if (seen.has(key)) throw parseError(`Duplicated property '${key}' in the object map`, k.pos);
        seen.add(key);
        this.expect(':', 'after the property name');
        entries.push([key, this.withNoPipe(false, () => this.parseExpr())]);
        if (!this.eat(',')) {
          this.expect('}', 'to close the object map');
          break;
        }
      }
      return { kind: 'map', pos, entries };
    } finally {
      this.depth--;
    }
  }

  private parseTemplate(t: Token): Expr {
    const parts: (string | Expr)[] = [];
    for (const part of t.parts!) {
      if (typeof part === 'string') {
        if (part) parts.push(part);
        continue;
      }
      const saved = this.toks;
      const savedP = this.p;
      const outerNoPipe = this.noPipe;
      this.toks = part;
      this.p = 0;
      this.noPipe = false;
      try {
        const body: Stmt[] = []; // `${}` is an empty block: ()
        while (!this.atEof()) this.parseStmtInto(body, true);
        const only = body[0];
        parts.push(body.length === 1 && only!.kind === 'expr' ? only.expr : { kind: 'block', pos: t.pos, body });
      } finally {
        this.toks = saved;
        this.p = savedP;
        this.noPipe = outerNoPipe;
      }
    }
    if (parts.length === 0) return { kind: 'literal', pos: t.pos, value: '' };
    if (parts.length === 1 && typeof parts[0] === 'string') return { kind: 'literal', pos: t.pos, value: parts[0] };
    return { kind: 'interpolation', pos: t.pos, parts };
  }
}

function describe(t: Token): string {
  switch (t.type) {
    case 'eof':
      return 'end of script';
    case 'string':
    case 'template':
      return 'a string';
    case 'char':
      return 'a character';
    default:
      return `'${t.text}'`;
  }
}

/** Rhai's ensure_bool_expr: a literal that can never be a bool is refused as an operand of `&&` / `||`. */
function ensureBoolOperand(e: Expr): void {
  let what: string | undefined;
  if (e.kind === 'literal') {
    const v = e.value;
    if (v === undefined) what = '()';
    else if (typeof v === 'number' || typeof v === 'bigint') what = 'a number';
    else if (v instanceof RhaiFloat) what = 'a floating-point number';
    else if (v instanceof RhaiChar) what = 'a character';
    else if (typeof v === 'string') what = 'a string';
  } else if (e.kind === 'interpolation') what = 'a string';
  else if (e.kind === 'array') what = 'an array';
  else if (e.kind === 'map') what = 'an object map';
  if (what) throw parseError(`Expecting a boolean expression, not ${what}`, e.pos);
}

type ChainLink = Extract<Expr, { kind: 'property' | 'index' | 'method' }>;

/** Does the chain ending at `e` hold a `?.` or `?[` (of its own, not inside an argument)? */
function sawSafeLink(e: Expr): boolean {
  for (let x = e; x.kind === 'property' || x.kind === 'index' || x.kind === 'method'; x = x.target)
    if (x.safe) return true;
  return false;
}

const NOT_CONSTANT = Symbol('not constant');

/** The value of a constant expression (literals, negated literals, int ranges, constant arrays). */
function constantValue(e: Expr): RhaiValue | typeof NOT_CONSTANT {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'array': {
      const out: RhaiValue[] = [];
      for (const item of e.items) {
        const v = constantValue(item);
        if (v === NOT_CONSTANT) return NOT_CONSTANT;
        out.push(v);
      }
      return out;
    }
    case 'map': {
      const out = new Map<string, RhaiValue>();
      for (const [key, item] of e.entries) {
        const v = constantValue(item);
        if (v === NOT_CONSTANT) return NOT_CONSTANT;
        out.set(key, v);
      }
      return out;
    }
    case 'binary': {
      if (e.op !== '..' && e.op !== '..=') return NOT_CONSTANT;
      const a = constantValue(e.left);
      const b = constantValue(e.right);
      if (a === NOT_CONSTANT || b === NOT_CONSTANT || !isInt(a) || !(isInt(b) || b === undefined)) return NOT_CONSTANT;
      return new RhaiRange(a, b ?? normInt(MAX_INT), e.op === '..=');
    }
    default:
      return NOT_CONSTANT;
  }
}

/** Index types Rhai rejects at parse time when both sides are literals (parse_index_chain). */
function checkLiteralIndex(target: Expr, index: Expr): void {
  const isBoolOp = index.kind === 'binary' && (index.op === '&&' || index.op === '||');
  const idx =
    index.kind === 'literal'
      ? index.value
      : index.kind === 'array'
        ? []
        : index.kind === 'map'
          ? new Map()
          : isBoolOp
            ? true
            : null;
  if (idx === null && index.kind !== 'interpolation') return;
  const isStringIndex = typeof idx === 'string' || index.kind === 'interpolation';
  const badIndex =
    typeof idx === 'boolean' ||
    (idx === undefined && index.kind === 'literal') ||
    idx instanceof RhaiFloat ||
    idx instanceof RhaiChar ||
    Array.isArray(idx) ||
    idx instanceof Map;
  if (target.kind === 'map') {
    if (typeof idx === 'number' || typeof idx === 'bigint' || badIndex)
      throw parseError('Object map expects a string index', index.pos);
    return;
  }
  const literalTarget =
    target.kind === 'array' ||
    target.kind === 'interpolation' ||
    (target.kind === 'literal' &&
      (typeof target.value === 'string' || typeof target.value === 'number' || typeof target.value === 'bigint'));
  if (!literalTarget) return;
  if (isStringIndex) throw parseError('Array or string expects a numeric index, not a string', index.pos);
  if (badIndex) throw parseError('Array or string expects a numeric index', index.pos);
}
