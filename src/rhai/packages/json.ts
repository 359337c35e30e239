// `parse_json` (lang_core.rs, via Engine::parse_json): the text read with Rhai's own lexing rules,
// so numbers, strings and escapes are Rhai literals (`1` is INT, `1.0` FLOAT), `{` opens an object
// map, `null` is (), and the result must be an object map.
import { RhaiError } from '../errors.ts';
import { Lexer, type Token } from '../lexer.ts';
import { checkArray, checkMap, type Runtime } from '../runtime.ts';
import { MAX_INT, MIN_INT, normInt, RhaiFloat, typeName, type RhaiMap, type RhaiValue } from '../values.ts';

function invalid(what: string, t: Token): RhaiError {
  return new RhaiError(
    'ErrorParsing',
    `Invalid JSON: ${what} (line ${t.pos.line}, position ${t.pos.column} of the JSON text)`,
  );
}

class JsonReader {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly rt: Runtime,
  ) {}

  private get tok(): Token {
    return this.tokens[this.at]!;
  }
  private isPunct(text: string): boolean {
    return this.tok.type === 'punct' && this.tok.text === text;
  }

  private expect(text: string, what: string): void {
    if (!this.isPunct(text)) throw invalid(`expecting ${what}`, this.tok);
    this.at++;
  }

  document(): RhaiValue {
    const v = this.value();
    if (this.tok.type !== 'eof') throw invalid('unexpected text after the value', this.tok);
    return v;
  }

  private value(): RhaiValue {
    const t = this.tok;
    if (t.type === 'punct' && t.text === '{') return this.object();
    if (t.type === 'punct' && t.text === '[') return this.array();
    this.at++;
    switch (t.type) {
      case 'string':
        return t.text;
      case 'float':
        return new RhaiFloat(t.float!);
      case 'int':
        if (t.int! > MAX_INT || t.int! < MIN_INT) throw invalid(`integer too large: ${t.text}`, t);
        return normInt(t.int!);
      case 'keyword':
        if (t.text === 'true' || t.text === 'false') return t.text === 'true';
        break;
      case 'ident':
        if (t.text === 'null') return undefined;
        break;
    }
    throw invalid(`unexpected '${t.text}'`, t);
  }

  private object(): RhaiMap {
    this.at++;
    const m: RhaiMap = new Map();
    while (!this.isPunct('}')) {
      const key = this.tok;
      if (key.type !== 'string') throw invalid('a property name must be a quoted string', key);
      this.at++;
      this.expect(':', "':' after the property name");
      m.set(key.text, this.value());
      checkMap(this.rt, m);
      if (!this.isPunct('}')) this.expect(',', "',' or '}'");
    }
    this.at++;
    return m;
  }

  private array(): RhaiValue[] {
    this.at++;
    const a: RhaiValue[] = [];
    while (!this.isPunct(']')) {
      a.push(this.value());
      checkArray(this.rt, a);
      if (!this.isPunct(']')) this.expect(',', "',' or ']'");
    }
    this.at++;
    return a;
  }
}

export function parseJson(text: string, rt: Runtime): RhaiMap {
  let tokens: Token[];
  try {
    tokens = Lexer.tokenize(text);
  } catch (e) {
    if (e instanceof RhaiError) throw new RhaiError('ErrorParsing', `Invalid JSON: ${e.detail}`);
    throw e;
  }
  const v = new JsonReader(tokens, rt).document();
  if (!(v instanceof Map))
    throw new RhaiError('ErrorMismatchOutputType', `Output type incorrect: ${typeName(v)} (expecting map)`);
  return v;
}
