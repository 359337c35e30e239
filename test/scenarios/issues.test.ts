// Scenario problems are worded one way (issue 10): the same file gets the same lines from the page,
// lev validate, lev replay and a share link, through src/scenarios/issues.ts.
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../../src/engine/index.ts';
import { formatIssues, scenarioIssueDiagnostics } from '../../src/scenarios/issues.ts';

const broken = ScenarioSchema.safeParse({
  version: 1,
  model: { id: 'gpt-4o' },
  agent: { 'agent.leviath': '' },
  traffic: [{ type: 'tool_result', tool_name: 'grep', size_tokens: 3 }, { type: 'nope' }],
  generator: { kind: 'chat' },
});

describe('scenario problems', () => {
  it('read "where: what", without zod\'s boilerplate', () => {
    expect(formatIssues(broken.error!)).toEqual([
      'traffic[0].tool_call_id: Required',
      'traffic[1].type: unknown type; expected one of "user", "assistant", "tool_result", "context_append", "context_delete", "context_list", "todo_add", "todo_done", "todo_note", "transition", "compaction"',
      'generator.kind: Invalid option: expected one of "coding-agent"|"research-agent"|"long-chat"',
    ]);
  });

  it('as diagnostics carry the same words, the key path, and the position the caller locates', () => {
    // A stand-in locator: the key path's depth as the line, its first key's length as the column.
    const located = scenarioIssueDiagnostics(broken.error!, 'run.json', (path) => ({
      line: path.length,
      column: String(path[0]).length,
    }));
    expect(located.map((d) => [d.code, d.severity, d.file, d.line, d.column, d.path, d.message])).toEqual([
      ['scenario-invalid', 'error', 'run.json', 3, 7, 'traffic[0].tool_call_id', 'traffic[0].tool_call_id: Required'],
      ['scenario-invalid', 'error', 'run.json', 3, 7, 'traffic[1].type', formatIssues(broken.error!)[1]],
      ['scenario-invalid', 'error', 'run.json', 2, 9, 'generator.kind', formatIssues(broken.error!)[2]],
    ]);
    expect(scenarioIssueDiagnostics(broken.error!, 'scenario.json').map((d) => [d.line, d.column])).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
  });

  it('at the top level say so', () => {
    const top = ScenarioSchema.safeParse([]);
    expect(scenarioIssueDiagnostics(top.error!, 'scenario.json').map((d) => d.message)).toEqual(
      formatIssues(top.error!),
    );
    expect(formatIssues(top.error!)[0]).toMatch(/^\(top level\): /);
  });
});
