import { describe, expect, it } from 'vitest';
import { KeyIndex, dottedPath } from '../../../src/engine/blueprint/locate.ts';
import { locateJson } from '../../../src/engine/blueprint/jsonLocate.ts';

const at = (line: number, column: number) => ({ line, column });
/** A located span: start and exclusive end. */
const span = (line: number, column: number, endLine: number, endColumn: number) => ({
  line,
  column,
  end: at(endLine, endColumn),
});
/** Only the start of a span. */
const start = ({ line, column }: { line: number; column: number }) => ({ line, column });

describe('KeyIndex (TOML key locator)', () => {
  it('finds keys and values under [table] headers', () => {
    const index = new KeyIndex('[context.regions.codebase]\nkind = "compacting"\n  budget = "20%"\n');
    expect(index.get(['context', 'regions', 'codebase'])).toEqual({ key: at(1, 18), keyEnd: at(1, 26) });
    expect(index.get(['context', 'regions', 'codebase', 'kind'])).toEqual({
      key: at(2, 1),
      keyEnd: at(2, 5),
      value: at(2, 8),
      valueEnd: at(2, 20),
    });
    expect(index.locate(['context', 'regions', 'codebase', 'budget'], 'value')).toEqual(span(3, 12, 3, 17));
  });

  it('finds keys inside inline tables and nested inline tables', () => {
    const index = new KeyIndex('[context.regions]\ntask = { kind = "pinned", seed = { files = ["a.md", "b.md"] } }\n');
    expect(index.locate(['context', 'regions', 'task'])).toEqual(span(2, 1, 2, 5));
    expect(index.locate(['context', 'regions', 'task'], 'value')).toEqual(span(2, 8, 2, 64));
    expect(index.locate(['context', 'regions', 'task', 'kind'], 'value')).toEqual(span(2, 17, 2, 25));
    expect(index.locate(['context', 'regions', 'task', 'seed', 'files'])).toEqual(span(2, 36, 2, 41));
    expect(index.locate(['context', 'regions', 'task', 'seed', 'files', 1], 'value')).toEqual(span(2, 53, 2, 59));
  });

  it('handles dotted keys, quoted keys and whitespace around dots', () => {
    const index = new KeyIndex('[ stages . "my.stage" ]\ntool_routing . overrides."read file" = "x"\n');
    expect(index.locate(['stages', 'my.stage'])).toEqual(span(1, 12, 1, 22));
    expect(start(index.locate(['stages', 'my.stage', 'tool_routing']))).toEqual(at(2, 1));
    expect(index.locate(['stages', 'my.stage', 'tool_routing', 'overrides', 'read file'])).toEqual(span(2, 26, 2, 37));
    expect(index.locate(['stages', 'my.stage', 'tool_routing', 'overrides', 'read file'], 'value')).toEqual(
      span(2, 40, 2, 43),
    );
  });

  it('handles per-stage region tables and multi-line inline tables', () => {
    const src =
      '[stages.implement.context.regions.todos]\nkind = "checklist"\n[stages.implement.transitions.review]\ngate = { require_no_open_items = "todos",\nmessage = "x" }\n';
    const index = new KeyIndex(src);
    expect(start(index.locate(['stages', 'implement', 'context', 'regions', 'todos', 'kind'], 'value'))).toEqual(
      at(2, 8),
    );
    expect(index.locate(['stages', 'implement', 'transitions', 'review'])).toEqual(span(3, 31, 3, 37));
    expect(start(index.locate(['stages', 'implement', 'transitions', 'review', 'gate', 'message']))).toEqual(at(5, 1));
    // A value spanning lines ends where it closes.
    expect(index.locate(['stages', 'implement', 'transitions', 'review', 'gate'], 'value')).toEqual(span(4, 8, 5, 16));
  });

  it('is not confused by strings holding brackets, quotes, # and escaped quotes', () => {
    const src = 'a = "x = [1, {"\nb = \'#[c]\' # comment = 3\nc = """\nd = "no"\n"""\ne = "q\\"uote" \nf = 1\n';
    const index = new KeyIndex(src);
    expect(start(index.locate(['b']))).toEqual(at(2, 1));
    expect(index.get(['d'])).toBeUndefined();
    expect(index.locate(['c'], 'value')).toEqual(span(3, 5, 5, 4));
    expect(index.locate(['e'], 'value')).toEqual(span(6, 5, 6, 14));
    expect(index.locate(['f'], 'value')).toEqual(span(7, 5, 7, 6));
  });

  it('numbers [[array]] tables and falls back to the nearest written ancestor', () => {
    const index = new KeyIndex('[[items]]\nname = "a"\n[[items]]\nname = "b"\n');
    expect(start(index.locate(['items', 1, 'name'], 'value'))).toEqual(at(4, 8));
    expect(index.locate(['items', 1, 'missing'])).toEqual(span(3, 3, 3, 8));
    expect(index.locate(['nothing', 'here'])).toEqual(at(1, 1));
  });

  it('scalar ends exclude trailing spaces and comments', () => {
    const index = new KeyIndex('n = 42   # the answer\nd = 1979-05-27 07:32:00  \n');
    expect(index.locate(['n'], 'value')).toEqual(span(1, 5, 1, 7));
    expect(index.locate(['d'], 'value')).toEqual(span(2, 5, 2, 24));
  });

  it('writes dotted paths the way diagnostics show them', () => {
    expect(dottedPath(['context', 'regions', 'readme', 'seed', 'files', 1])).toBe(
      'context.regions.readme.seed.files[1]',
    );
    expect(dottedPath(['stages', 'my.stage'])).toBe('stages."my.stage"');
  });
});

describe('locateJson', () => {
  const src =
    '{\n  "version": 1,\n  "agent": { "agent.leviath": "x" },\n  "traffic": [\n    {"type": "user"},\n    {"type": "bogus", "content": "y"}\n  ]\n}';
  it('finds object keys and array elements', () => {
    expect(locateJson(src, ['agent', 'agent.leviath'])).toEqual(at(3, 14));
    expect(locateJson(src, ['traffic', 1, 'type'])).toEqual(at(6, 6));
  });
  it('falls back to the deepest existing ancestor', () => {
    expect(locateJson(src, ['traffic', 0, 'content'])).toEqual(at(5, 5));
  });
});
