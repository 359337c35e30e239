import { describe, expect, it } from 'vitest';
import { COMMON_KEYS, KINDS, REGION_KINDS, kindKeys } from '../../../src/engine/index.ts';
import {
  completeLeviath,
  cursorContext,
  declaredRegions,
  didYouMeanFix,
  hoverLeviath,
} from '../../../src/ui/monaco/leviathLanguage.ts';

/** Splits `text` at the `|` marker into the text and the marker's 1-based line and column. */
function at(marked: string): [string, number, number] {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const before = text.slice(0, offset).split('\n');
  return [text, before.length, before[before.length - 1]!.length + 1];
}

const labels = (marked: string, files: string[] = []) => {
  const [text, line, column] = at(marked);
  return completeLeviath(text, line, column, files).map((i) => i.label);
};

const BLUEPRINT = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
conversation = { kind = "sliding_window", max_items = 20 }
scratch = { kind = "clearable" }
`;

describe('completion in agent.leviath', () => {
  it('offers every region kind after kind = "', () => {
    expect(labels('[context.regions]\nnotes = { kind = "|" }')).toEqual([
      'temporary',
      'pinned',
      'sliding_window',
      'compacting',
      'compact_history',
      'clearable',
      'hashmap',
      'checklist',
      'custom',
      'hash_map',
    ]);
  });

  it('inserts quotes when the value has none yet', () => {
    const [text, line, column] = at('[context.regions.notes]\nstrategy = |');
    expect(completeLeviath(text, line, column, []).map((i) => i.insertText)).toEqual([
      '"per_item"',
      '"bulk"',
      '"compact"',
    ]);
  });

  it('offers the keys of the region kind, minus the ones written', () => {
    expect(labels('[context.regions]\nconversation = { kind = "sliding_window", |')).toEqual([
      'budget',
      'max_tokens',
      'min_tokens',
      'seed',
      'required',
      'summarizable',
      'admission',
      'required_message',
      'max_items',
      'strategy',
      'overflow',
      'compact_count',
    ]);
    expect(labels('[context.regions.codebase]\nkind = "compacting"\nbudget = "20%"\n|')).toEqual([
      'max_tokens',
      'min_tokens',
      'seed',
      'required',
      'summarizable',
      'admission',
      'required_message',
      'compact_at',
      'threshold_tokens',
    ]);
  });

  it('offers stage, transition, gate and routing keys', () => {
    expect(labels('[stages.analyze]\n|')).toEqual([
      'system_prompt',
      'context',
      'transitions',
      'tool_routing',
      'max_attempts',
    ]);
    expect(labels('[stages.analyze.transitions.implement]\n|')).toEqual(['gate', 'transform']);
    expect(labels('[stages.a.transitions.b]\ngate = { |')).toEqual([
      'require_no_open_items',
      'message',
      'max_attempts',
    ]);
    expect(labels('[stages.a.tool_routing]\n|')).toEqual([
      'default_region',
      'max_result_tokens',
      'overrides',
      'max_result_tokens_per_tool',
    ]);
    expect(labels('[stages.a.tool_routing.overrides]\nread_file = { |')).toEqual(['region', 'max_result_tokens']);
  });

  it('offers the declared regions where a key names one, plus the runtime ones for routing', () => {
    expect(labels(`${BLUEPRINT}history = { kind = "compact_history", source_region = "|" }`)).toEqual([
      'task',
      'conversation',
      'scratch',
      'history',
    ]);
    expect(labels(`${BLUEPRINT}[stages.a.tool_routing]\ndefault_region = "|"`)).toEqual([
      'task',
      'conversation',
      'scratch',
      'tool_results',
      'final_output',
      'stage_instructions',
    ]);
    expect(labels(`${BLUEPRINT}[stages.a.tool_routing.overrides]\nread_file = "|"`)).toEqual([
      'task',
      'conversation',
      'scratch',
      'tool_results',
      'final_output',
      'stage_instructions',
    ]);
    expect(labels(`${BLUEPRINT}[stages.a.transitions.b]\ngate = { require_no_open_items = "|" }`)).toEqual([
      'task',
      'conversation',
      'scratch',
    ]);
  });

  it('offers seed forms and file paths', () => {
    expect(labels('[context.regions]\nrules = { seed = |')).toEqual([
      '"task_input"',
      '"input"',
      '{ files = … }',
      '{ glob = … }',
      '{ literal = … }',
      '{ command = … }',
      '{ rhai = … }',
      '{ caller = … }',
    ]);
    expect(labels('[context.regions]\nrules = { seed = { | } }')).toEqual([
      'files',
      'glob',
      'literal',
      'command',
      'rhai',
      'caller',
    ]);
    const files = ['agent.leviath', 'context_hooks/brain.rhai', 'README.md'];
    expect(labels('[context.regions.brain]\nkind = "custom"\nscript = "|"', files)).toEqual([
      'context_hooks/brain.rhai',
    ]);
    expect(labels('[context.regions]\nr = { seed = { files = ["|"] } }', files)).toEqual(files);
  });

  it('offers table names in a header, with the declared regions and stages', () => {
    expect(labels(`${BLUEPRINT}[stages.a]\n[|`)).toEqual([
      'context.regions',
      'context.file_tracking',
      'safe_commands',
      'read_paths',
      'security',
      'context.regions.task',
      'context.regions.conversation',
      'context.regions.scratch',
      'stages.a',
      'stages.a.context.regions',
      'stages.a.tool_routing',
      'stages.a.tool_routing.overrides',
      'stages.a.tool_routing.max_result_tokens_per_tool',
    ]);
  });

  it('offers top-level keys at the top, and nothing inside a plain string', () => {
    expect(labels('|')).toEqual(['context', 'stages', 'safe_commands', 'read_paths', 'security']);
    expect(labels('[stages.a]\nsystem_prompt = "Read |')).toEqual([]);
  });
});

describe('the cursor context', () => {
  it('follows dotted keys and inline tables', () => {
    const [text, line, column] = at('[context.regions]\nconversation.kind = "|');
    expect(cursorContext(text, line, column)).toEqual({
      path: ['context', 'regions', 'conversation'],
      valueKey: 'kind',
      inString: true,
      inArray: false,
      header: false,
    });
  });
  it('lists regions declared in header tables and per stage', () => {
    expect(
      declaredRegions(
        '[context.regions.a]\nkind = "pinned"\n[stages.s.context.regions]\nb = {}\n[stages.s.context.regions.c]\n',
      ),
    ).toEqual(['a', 'b', 'c']);
  });
});

describe('hover in agent.leviath', () => {
  it('explains a key with its default, from the spec', () => {
    const [text, line, column] = at('[context.regions.codebase]\ncompa|ct_at = "80%"');
    expect(hoverLeviath(text, line, column)).toEqual({
      word: 'compact_at',
      markdown:
        '**compact_at** (default the budget)\n\ncompacting / compact_history: compact once the region is this full, a share of its resolved budget ("80%" of a 40,000-token budget is 32,000).',
    });
  });
  it('explains an enumerated value', () => {
    const [text, line, column] = at('[context.regions]\nsources = { admission = "rej|ect" }');
    expect(hoverLeviath(text, line, column)?.markdown).toBe(
      '**admission = "reject"**\n\nA write that does not fit is refused and the agent is told to release something first; the region is also exempt from the window cascade.',
    );
  });
  it('says nothing over a word it does not know', () => {
    const [text, line, column] = at('[stages.a]\nsystem_prompt = "Re|ad"');
    expect(hoverLeviath(text, line, column)).toBeNull();
  });
});

describe('every region kind in the editor', () => {
  // Held to the kinds' definitions (src/engine/regions/<kind>.ts): a kind registered without a doc
  // for itself or for a key the blueprint reader accepts shows nothing on hover, and fails here.
  for (const kind of REGION_KINDS) {
    it(`documents kind = "${kind}" and every key a ${kind} region accepts`, () => {
      const [text, line, column] = at(`[context.regions.notes]\nkind = "${kind.slice(0, 2)}|${kind.slice(2)}"\n`);
      expect(hoverLeviath(text, line, column)?.markdown).toBe(`**kind = "${kind}"**\n\n${KINDS[kind].doc}`);
      const [table, keyLine, keyColumn] = at(`[context.regions.notes]\nkind = "${kind}"\n|`);
      const offered = completeLeviath(table, keyLine, keyColumn, []);
      expect(offered.map((item) => item.label)).toEqual(
        [...COMMON_KEYS, ...kindKeys(kind)].filter((k) => k !== 'kind'),
      );
      for (const item of offered) expect(item.documentation?.trim(), item.label).toBeTruthy();
      for (const [key, doc] of Object.entries(KINDS[kind].keys)) {
        const [keyText, l, c] = at(`[context.regions.notes]\nkind = "${kind}"\n${key}|= 1\n`);
        expect(hoverLeviath(keyText, l, c)?.markdown, key).toContain(doc.meaning);
      }
    });
  }
});

describe('did-you-mean quick fixes', () => {
  it('renames a key bare and a value in quotes', () => {
    expect(
      didYouMeanFix(
        'Unknown key `max_item` in region "c". Did you mean "max_items"? Remove or rename it.',
        'max_item',
        ' = 20',
      ),
    ).toBe('max_items');
    expect(
      didYouMeanFix('Unknown region kind "sliding". Did you mean "sliding_window"? Use one of: …', '"sliding"', ' }'),
    ).toBe('"sliding_window"');
    expect(
      didYouMeanFix('`budget` must be a percentage string, not the number 20. Did you mean "20%"? Write …', '20', ''),
    ).toBe('"20%"');
    expect(
      didYouMeanFix('Unknown seed table key caller_input. Did you mean { caller = ... }?', 'caller_input', ' = "x" }'),
    ).toBe('caller');
  });
  it('offers nothing without a suggestion', () => {
    expect(
      didYouMeanFix('Unknown key `zzz` in region "c". Keys a pinned region accepts: kind, budget.', 'zzz', ' = 1'),
    ).toBeNull();
  });
});
