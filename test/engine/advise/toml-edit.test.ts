// Editing agent.leviath where its keys stand: everything the user wrote that an edit does not name
// (comments, blank lines, order, quoting, inline or section style) comes out exactly as it went in.
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { TomlEditor } from '../../../src/engine/advise/toml-edit.ts';

const edit = (source: string, apply: (e: TomlEditor) => void): string => {
  const e = new TomlEditor(source);
  apply(e);
  return e.text();
};

const SOURCE = `# the team's layout, reviewed 2026-11
[context.regions]
task = { kind = "pinned", budget = "12%", seed = "task_input" } # never evicted
codebase = { kind = "compacting", budget = "20%", compact_at = "80%" }

[context.regions.conversation]
kind = "sliding_window"   # the turns
budget = "33%"
max_items = 20

[stages.analyze]
system_prompt = """
Read first.
[not a header]
"""

[stages.analyze.tool_routing.overrides]
read_file = "codebase" # files
`;

describe('TomlEditor', () => {
  it('replaces a value in place, in an inline table and in a section', () => {
    const out = edit(SOURCE, (e) => {
      e.set(['context', 'regions', 'codebase', 'budget'], '10%');
      e.set(['context', 'regions', 'conversation', 'max_items'], 8);
    });
    expect(out).toBe(SOURCE.replace('budget = "20%"', 'budget = "10%"').replace('max_items = 20', 'max_items = 8'));
  });

  it("adds a key at the end of its inline table, or as a line after its section's last key", () => {
    const out = edit(SOURCE, (e) => {
      e.set(['context', 'regions', 'task', 'min_tokens'], 500);
      e.set(['context', 'regions', 'conversation', 'strategy'], 'bulk');
      e.set(['context', 'regions', 'conversation', 'overflow'], 10);
    });
    expect(out).toBe(
      SOURCE.replace('seed = "task_input" }', 'seed = "task_input", min_tokens = 500 }').replace(
        'max_items = 20\n',
        'max_items = 20\nstrategy = "bulk"\noverflow = 10\n',
      ),
    );
  });

  it('removes a key with its comma, or its whole line', () => {
    const out = edit(SOURCE, (e) => {
      e.remove(['context', 'regions', 'codebase', 'compact_at']);
      e.remove(['context', 'regions', 'task', 'kind']);
      e.remove(['context', 'regions', 'conversation', 'budget']);
    });
    expect(out).toBe(
      SOURCE.replace(', compact_at = "80%"', '')
        .replace('{ kind = "pinned", budget', '{ budget')
        .replace('budget = "33%"\n', ''),
    );
  });

  it('adds a region to [context.regions] as a line like its neighbours, and later keys join it', () => {
    const out = edit(SOURCE, (e) => {
      e.set(['context', 'regions', 'tool_results', 'kind'], 'sliding_window');
      e.set(['context', 'regions', 'tool_results', 'budget'], '10%');
    });
    expect(out).toBe(
      SOURCE.replace(
        'compact_at = "80%" }\n',
        'compact_at = "80%" }\ntool_results = { kind = "sliding_window", budget = "10%" }\n',
      ),
    );
  });

  it('adds a table the file lacks as a section after its relatives, before a key joins an existing one at the same place', () => {
    const out = edit(SOURCE, (e) => {
      e.set(['stages', 'analyze', 'tool_routing', 'max_result_tokens_per_tool', 'read_file'], 4000);
      e.set(['stages', 'analyze', 'tool_routing', 'overrides', 'shell'], 'codebase');
    });
    expect(out).toBe(
      `${SOURCE.trimEnd()}\nshell = "codebase"\n\n[stages.analyze.tool_routing.max_result_tokens_per_tool]\nread_file = 4000\n`,
    );
    expect(parse(out)).toMatchObject({
      stages: {
        analyze: {
          tool_routing: {
            overrides: { read_file: 'codebase', shell: 'codebase' },
            max_result_tokens_per_tool: { read_file: 4000 },
          },
        },
      },
    });
  });

  it('adds a stage table at the end of a file without stages', () => {
    const flat = '[context.regions]\ntask = { kind = "pinned" }\n';
    expect(
      edit(flat, (e) => e.set(['stages', 'main', 'tool_routing', 'max_result_tokens_per_tool', 'grep'], 2000)),
    ).toBe(
      '[context.regions]\ntask = { kind = "pinned" }\n\n[stages.main.tool_routing.max_result_tokens_per_tool]\ngrep = 2000\n',
    );
  });

  it('writes into an inline ancestor when the table would live inside one', () => {
    const inline = '[stages.work]\ntool_routing = { default_region = "scratch" }\n';
    const out = edit(inline, (e) =>
      e.set(['stages', 'work', 'tool_routing', 'max_result_tokens_per_tool', 'read_file'], 8000),
    );
    expect(out).toBe(
      '[stages.work]\ntool_routing = { default_region = "scratch", max_result_tokens_per_tool = { read_file = 8000 } }\n',
    );
  });

  it('does not take a [bracket] inside a multi-line string for a header, and keeps a byte-order mark', () => {
    const out = edit(`\ufeff${SOURCE}`, (e) => e.set(['stages', 'analyze', 'system_prompt'], 'Read.'));
    expect(out.startsWith('\ufeff# the team')).toBe(true);
    expect(parse(out.slice(1))).toMatchObject({ stages: { analyze: { system_prompt: 'Read.' } } });
    expect(out).toContain('[stages.analyze.tool_routing.overrides]\nread_file = "codebase" # files');
  });

  it('quotes keys that are not bare', () => {
    const out = edit('[context.regions]\n', (e) =>
      e.set(['stages', 'my stage', 'tool_routing', 'overrides', 'mcp.fetch'], 'scratch'),
    );
    expect(parse(out)).toEqual({
      context: { regions: {} },
      stages: { 'my stage': { tool_routing: { overrides: { 'mcp.fetch': 'scratch' } } } },
    });
  });
});
