import { describe, expect, it } from 'vitest';
import { completeRhai, hookAt, hoverRhai } from '../../../src/ui/monaco/rhaiLanguage.ts';

function at(marked: string): [string, number, number] {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const before = text.slice(0, offset).split('\n');
  return [text, before.length, before[before.length - 1]!.length + 1];
}
const labels = (marked: string) => completeRhai(...at(marked)).map((i) => i.label);

describe('completion in .rhai hooks', () => {
  it('offers the hooks not yet written after fn, with their signatures', () => {
    const [text, line, column] = at('fn render(ctx) { "" }\nfn |');
    const items = completeRhai(text, line, column);
    expect(items.map((i) => [i.label, i.detail])).toEqual([
      ['on_write', 'fn on_write(ctx) -> string | bool | ()'],
      ['on_overflow', 'fn on_overflow(ctx) -> array of entry indices'],
    ]);
    expect(items[0]!.insertText).toBe('on_write(ctx) {\n    ()\n}');
  });

  it('offers the ctx fields of the hook the cursor is in', () => {
    expect(labels('fn render(ctx) {\n    ctx.|\n}')).toEqual([
      'region',
      'entries',
      'stage_name',
      'stage_iterations',
      'model',
      'window',
    ]);
    expect(labels('fn on_write(ctx) {\n    let e = ctx.|\n}')).toEqual(['region', 'entry']);
    expect(labels('fn on_overflow(ctx) {\n    ctx.ne|\n}')).toEqual(['region', 'entries', 'needed_tokens']);
    expect(labels('fn render(ctx) {\n    ctx.region.|\n}')).toEqual([
      'name',
      'budget',
      'current_tokens',
      'entry_count',
    ]);
    expect(labels('fn on_write(ctx) {\n    ctx.entry.|\n}')).toEqual(['content', 'kind', 'tokens']);
  });

  it('offers entry fields on a loop variable over ctx.entries', () => {
    expect(labels('fn render(ctx) {\n    for e in ctx.entries {\n        e.|')).toEqual([
      'content',
      'tokens',
      'timestamp',
      'key',
      'kind',
      'tool_calls',
      'tool_call_id',
      'tool_name',
      'is_error',
    ]);
  });

  it('offers the standard functions after a dot', () => {
    const names = labels('fn render(ctx) {\n    let s = "a";\n    s.|');
    expect(names).toContain('contains');
    expect(names).toContain('split');
    expect(names).toContain('to_upper');
  });

  it('knows which hook a line is in', () => {
    const text = 'fn helper(x) { x }\nfn render(ctx) {\n    1\n}\n';
    expect(hookAt(text, 1)).toBeNull();
    expect(hookAt(text, 3)).toBe('render');
  });
});

describe('hover in .rhai hooks', () => {
  it('explains hooks, ctx fields and functions', () => {
    expect(hoverRhai(...at('fn on_over|flow(ctx) { [] }'))?.markdown).toBe(
      '`fn on_overflow(ctx) -> array of entry indices`\n\nOptional. Runs when the region must shrink. Return the indices of entries to drop; if they do not free enough, oldest-first eviction makes up the difference.',
    );
    expect(hoverRhai(...at('fn on_overflow(ctx) {\n    ctx.needed_t|okens\n}'))?.markdown).toBe(
      '**ctx.needed_tokens** (on_overflow)\n\nHow many tokens must be freed.',
    );
    expect(hoverRhai(...at('fn render(ctx) { ctx.region.bud|get }'))?.markdown).toBe(
      '**ctx.region.budget** (render)\n\nThe resolved budget in tokens (the percentage already worked out against the model).',
    );
    expect(hoverRhai(...at('fn render(ctx) { "a".cont|ains("b") }'))?.markdown).toBe(
      '**contains** — standard function\n\ncontains(s, x): whether a string holds a substring/char, an array an item, or a map a key.',
    );
  });
});

describe('Rhai 1.26 functions and module syntax in the editor', () => {
  it('offers the BLOB, timestamp and keyword functions, with docs', () => {
    const items = completeRhai(...at('fn render(ctx) {\n    let b = |'));
    const byLabel = new Map(items.map((i) => [i.label, i]));
    for (const name of [
      'blob',
      'parse_le_int',
      'write_utf8',
      'timestamp',
      'elapsed',
      'eval',
      'is_shared',
      'is_def_var',
    ]) {
      expect(byLabel.get(name)?.documentation, name).toBeTruthy();
    }
  });

  it('offers import and export at the start of a statement, not inside an expression', () => {
    expect(labels('|')).toEqual(expect.arrayContaining(['import', 'export']));
    expect(labels('let x = |')).not.toContain('import');
  });

  it('offers the top-level constants after global::, and nothing after a module alias', () => {
    expect(labels('const LIMIT = 5;\nexport const NAME = "x";\nfn render(ctx) { global::|')).toEqual(['LIMIT', 'NAME']);
    expect(labels('import "helpers" as h;\nfn render(ctx) { h::|')).toEqual([]);
  });

  it('explains import, export and the keyword functions on hover', () => {
    expect(hoverRhai(...at('imp|ort "helpers" as h;'))?.markdown).toMatch(/^`import "path" as name;`/);
    expect(hoverRhai(...at('export co|nst'))?.markdown).toBeUndefined();
    expect(hoverRhai(...at('exp|ort x;'))?.markdown).toMatch(/In a module, at the top level/);
    expect(hoverRhai(...at('is_sh|ared(a)'))?.markdown).toBe(
      '**is_shared** — standard function\n\nis_shared(x): whether the variable has been captured by a closure.',
    );
  });
});
