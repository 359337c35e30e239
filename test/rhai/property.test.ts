// Random token soup never crashes the parser: compile() only ever throws RhaiError 'ErrorParsing'.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, RhaiError } from '../../src/rhai/index.ts';

const TOKENS = [
  'let',
  'const',
  'if',
  'else',
  'switch',
  'while',
  'loop',
  'do',
  'until',
  'for',
  'in',
  'break',
  'continue',
  'return',
  'throw',
  'try',
  'catch',
  'fn',
  'private',
  'this',
  'global',
  'true',
  'false',
  'Fn',
  'call',
  'curry',
  'print',
  'x',
  'y',
  'f',
  '_',
  'len',
  'push',
  '0',
  '1',
  '42',
  '9223372036854775807',
  '9223372036854775808',
  '1.5',
  '1e3',
  '0xff',
  '0b2',
  '"s"',
  '"a\\nb"',
  '"\\q"',
  "'c'",
  "''",
  '`t ${x} `',
  '`',
  '#"raw"#',
  '"',
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '<<',
  '>>',
  '&',
  '|',
  '^',
  '&&',
  '||',
  '!',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '=',
  '+=',
  '-=',
  '??',
  '?.',
  '?[',
  '..',
  '..=',
  '=>',
  '::',
  '.',
  ',',
  ';',
  ':',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '#{',
  '//',
  '/*',
  '*/',
  '\n',
  ' ',
  '@',
  '$',
  '~',
  '\\',
];

const soup = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...TOKENS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(' '));

describe('parser robustness', () => {
  it('only ever throws ErrorParsing for random token soup', () => {
    fc.assert(
      fc.property(soup, (src) => {
        try {
          compile(src);
        } catch (e) {
          expect(e).toBeInstanceOf(RhaiError);
          const err = e as RhaiError;
          expect(err.kind).toBe('ErrorParsing');
          expect(err.line).toBeGreaterThan(0);
          expect(err.column).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300, seed: 20260 },
    );
  });

  it('also survives soup without spaces between tokens', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((p) => p.join('')),
        (src) => {
          try {
            compile(src);
          } catch (e) {
            expect(e).toBeInstanceOf(RhaiError);
            expect((e as RhaiError).kind).toBe('ErrorParsing');
          }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
