// Issue 32: checklists and gates do what the spec promises across stages: an id is never reused,
// a gate gates or lev validate refuses it, and every case where a checklist or a gate would
// silently do nothing is a finding with a code of its own.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { append, assistant, detail, run, scenario, transition } from '../../builders.ts';

const add = (region: string, item: string): TrafficEvent => ({ type: 'todo_add', region, item });
const done = (region: string, id: number): TrafficEvent => ({ type: 'todo_done', region, id });

describe('4. a checklist id is never reused, whatever kinds its region passes through', () => {
  // spec: "An id is never reused, so a `todo_done` cannot land on a different item than the one it names."
  const toml = `[context.regions]
todos = { kind = "checklist" }

[stages.plan.transitions.build]
[stages.build.context.regions]
todos = { kind = "temporary" }
[stages.build.transitions.check]
[stages.check]
`;
  const traffic: TrafficEvent[] = [
    add('todos', 'read the parser'),
    add('todos', 'write the test'),
    done('todos', 1),
    transition('build'),
    append('todos', 'a free-text note'),
    transition('check'),
    add('todos', 'run the suite'),
    done('todos', 3),
    done('todos', 1),
    assistant('ok'),
  ];

  it('the next item after the round trip is #3, and todo_done 3 closes it, not an older item', () => {
    const t = run(toml, traffic);
    expect(t.steps[6]!.result).toEqual({ ok: true, message: 'added #3 to todos' });
    expect(t.steps[7]!.result).toEqual({ ok: true, message: '#3 done: run the suite' });
    // The items came back with their state: #1 was closed before the round trip.
    expect(t.steps[8]!.result).toEqual({ ok: true, message: '#1 was already done' });
    const block = detail(toml, traffic, 9).request.system.find((b) => b.region === 'todos')!.text;
    expect(block).toBe('[todos]:\n- [ ] #2 write the test\n- [x] #1 read the parser\n- [x] #3 run the suite');
  });

  it('what the checklist cannot take back (free text) leaves on the timeline, with a warning', () => {
    const step = run(toml, traffic).steps[5]!;
    const why = 'todos is a checklist: write to it with todo_add, todo_done and todo_note';
    expect(step.changes).toEqual([
      {
        type: 'evict',
        region: 'todos',
        tokens: 4,
        entries: ['a free-text note'],
        reason: `stage check makes todos a checklist: ${why}`,
      },
    ]);
    expect(step.warnings).toEqual([
      `stage check makes todos a checklist, which did not take 1 of its 3 entries: ${why}`,
    ]);
  });
});

/** `code severity path` of each finding of `toml`, and its message by code. */
function findings(toml: string, extra = {}) {
  const diagnostics = validateScenario(scenario(toml, [], extra)).diagnostics.filter(
    (d) => d.code !== 'task-not-seeded',
  );
  return {
    lines: diagnostics.map((d) => `${d.code} ${d.severity} ${d.path}`),
    message: (code: string) => diagnostics.find((d) => d.code === code)!.message,
  };
}

describe('2. a gate on a checklist its stage cannot see is refused by lev validate', () => {
  // spec: "A gate naming a region no stage declares, or a region that is not a `checklist`, is
  // refused by `lev validate`. At runtime such a gate could only ever count zero and pass on the
  // first attempt, which looks exactly like a stage that finished its work."
  it('a checklist declared only at the top level, every stage with its own layout: no stage declares it', () => {
    const toml = `[context.regions]
todos = { kind = "checklist" }
[stages.plan.context.regions]
notes = { kind = "temporary" }
[stages.plan.transitions.build]
gate = { require_no_open_items = "todos" }
[stages.build.context.regions]
notes = { kind = "temporary" }
`;
    const seen = findings(toml);
    expect(seen.lines).toEqual([
      'gate-region-not-visible error stages.plan.transitions.build.gate.require_no_open_items',
    ]);
    expect(seen.message('gate-region-not-visible')).toBe(
      'Gate requires no open items in "todos", but stage "plan" cannot see it (it is declared only at the top level ' +
        'and every stage declares its own layout without it), so todo_add and todo_done cannot reach it there: the gate would pass at once on an empty checklist, ' +
        'or nudge the agent to close items it cannot see until max_attempts runs out. Add todos to [stages.plan.context.regions], or gate on a checklist stage "plan" declares.',
    );
    // Refused, so it cannot run and pass at the first attempt as if the work were done.
    expect(
      validateScenario(scenario(toml, [transition('build')])).diagnostics.some((d) => d.severity === 'error'),
    ).toBe(true);
  });

  it("a checklist only an earlier stage declares: the gate's stage cannot close its items", () => {
    const toml = `[stages.plan.context.regions]
todos = { kind = "checklist" }
[stages.plan.transitions.build]
[stages.build.context.regions]
notes = { kind = "temporary" }
[stages.build.transitions.ship]
gate = { require_no_open_items = "todos" }
[stages.ship]
`;
    expect(findings(toml).lines).toEqual([
      'gate-region-not-visible error stages.build.transitions.ship.gate.require_no_open_items',
    ]);
    expect(findings(toml).message('gate-region-not-visible')).toContain(
      'stage "build" cannot see it (only stage "plan" declares it)',
    );
  });

  it('a gate on a checklist its stage sees is not reported, and gates', () => {
    const toml =
      '[context.regions]\ntodos = { kind = "checklist" }\n[stages.plan.transitions.build]\ngate = { require_no_open_items = "todos" }\n[stages.build]\n';
    expect(findings(toml).lines).toEqual([]);
    const t = run(toml, [add('todos', 'read the parser'), transition('build')]);
    expect(t.steps[1]!.result).toEqual({
      ok: false,
      message: 'Finish or explicitly drop the open items first. Open in todos: #1 read the parser. (attempt 1 of 3)',
    });
  });
});

describe('max_attempts = 1 never refuses, and lev validate says so', () => {
  // spec: the nudge "shares the same `max_attempts` budget as every other gate, so it cannot wedge a
  // run". At 1 the first refused attempt already spends it: the gate moves on at once.
  const toml = (where: 'stage' | 'gate') => `[context.regions]
todos = { kind = "checklist" }
[stages.plan]
${where === 'stage' ? 'max_attempts = 1' : ''}
[stages.plan.transitions.build]
gate = { require_no_open_items = "todos"${where === 'gate' ? ', max_attempts = 1' : ''} }
[stages.build]
`;

  it('the run moves on at the first attempt, with the open items in a warning', () => {
    const t = run(toml('stage'), [add('todos', 'read the parser'), transition('build')]);
    expect(t.steps[1]!.result).toEqual({
      ok: true,
      message: 'moved from plan to build (gate not satisfied; max_attempts reached)',
    });
    expect(t.steps[1]!.warnings).toEqual([
      'stage plan: gate still refused after 1 attempts; moving on to build anyway (Finish or explicitly drop the open items first. Open in todos: #1 read the parser.)',
    ]);
  });

  it('validate warns where max_attempts is written: the stage, or the gate when the stage sets none', () => {
    expect(findings(toml('stage')).lines).toEqual(['max-attempts-never-refuses warning stages.plan.max_attempts']);
    expect(findings(toml('gate')).lines).toEqual([
      'max-attempts-never-refuses warning stages.plan.transitions.build.gate.max_attempts',
    ]);
    expect(findings(toml('stage')).message('max-attempts-never-refuses')).toBe(
      'max_attempts = 1 for stage "plan": the first attempt that would be refused moves on instead ' +
        '(with a warning on the timeline), so the gate never refuses and the agent is never nudged. Set max_attempts = 2 or more to refuse at least once, or remove the gate.',
    );
  });

  it('max_attempts = 2 refuses once', () => {
    expect(findings(toml('stage').replace('max_attempts = 1', 'max_attempts = 2')).lines).toEqual([]);
  });
});

describe('5. a seed on a checklist is dropped, and lev validate says so', () => {
  // spec: checklist is "Written through `todo_add` / `todo_done` / `todo_note`", so "the state cannot
  // drift from what the model believes it wrote"; a `seed` "fills a region before the first inference".
  const toml =
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\ntodos = { kind = "checklist", seed = { literal = "- read the parser" } }\n';

  it('validate warns at the seed; the run starts the checklist empty and warns the same', () => {
    const seen = findings(toml, { inputs: { task: 'Fix it' } });
    expect(seen.lines).toEqual(['checklist-seed-ignored warning context.regions.todos.seed']);
    expect(seen.message('checklist-seed-ignored')).toBe(
      'The seed is dropped and the checklist starts empty: region "todos" is a checklist, which holds only items ' +
        'written with todo_add (the state cannot drift from what the model believes it wrote). Seed a pinned region with the text instead, or have the agent add the items.',
    );
    const t = run(toml, [assistant('ok')], { inputs: { task: 'Fix it' } });
    expect(t.steps[0]!.regions.todos).toMatchObject({ entries: 0 });
    expect(t.warnings).toContain(
      'seed literal into todos: todos is a checklist: write to it with todo_add, todo_done and todo_note',
    );
  });
});
