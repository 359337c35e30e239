// The Monarch definition is plain data Monaco can register: every state it names exists and every
// rule is a regex; the language configuration pairs brackets and comments.
import { describe, expect, it } from 'vitest';
import { rhaiLanguageConfiguration, rhaiMonarch } from '../../src/rhai/monarch.ts';
import { checkSyntax } from '../../src/rhai/index.ts';

type Rule = [RegExp, unknown, string?] | { include: string };

describe('rhaiMonarch', () => {
  const states = rhaiMonarch.tokenizer as unknown as Record<string, Rule[]>;

  it('only refers to states that exist', () => {
    const names = new Set(Object.keys(states));
    for (const [state, rules] of Object.entries(states)) {
      for (const rule of rules) {
        const targets: string[] = [];
        if ('include' in rule) targets.push(rule.include.replace(/^@/, ''));
        else {
          expect(rule[0], `${state}: rule pattern`).toBeInstanceOf(RegExp);
          const action = rule[1] as { next?: string } | string;
          if (typeof action === 'object' && action.next) targets.push(action.next);
          if (rule[2]) targets.push(rule[2]);
        }
        for (const t of targets) {
          if (t === '@pop' || t === '@push') continue;
          expect(names.has(t.replace(/^@/, '')), `${state} -> ${t}`).toBe(true);
        }
      }
    }
  });

  it('knows the Rhai keywords and comment forms', () => {
    expect(rhaiMonarch.keywords).toEqual(expect.arrayContaining(['let', 'fn', 'switch', 'try', 'catch', 'loop']));
    expect(rhaiLanguageConfiguration.comments).toEqual({ lineComment: '//', blockComment: ['/*', '*/'] });
    expect(rhaiLanguageConfiguration.brackets).toEqual([
      ['{', '}'],
      ['[', ']'],
      ['(', ')'],
    ]);
  });
});

describe('checkSyntax (editor markers)', () => {
  it('returns null for a valid script and the first error with its position otherwise', () => {
    expect(checkSyntax('fn render(ctx) { ctx.entries.len() }')).toBeNull();
    expect(checkSyntax('fn render(ctx) {\n  let x = ;\n}')).toEqual({ message: "Unexpected ';'", line: 2, column: 11 });
  });
});
