// A coding agent: reads files of varied size, greps, runs the tests, keeps a checklist, and moves
// from an analyze stage to an implement stage through a gate that refuses it once.
import { z } from 'zod';
import type { Random } from './random.ts';
import { lines, prose } from './text.ts';
import { TrafficBuilder, type PlannedCall } from './traffic-builder.ts';
import { itemAt } from '../engine/page.ts';

const weight = z.number().nonnegative();

export const CodingAgentParamsSchema = z
  .object({
    fileSizes: z
      .object({
        small: weight.default(5),
        medium: weight.default(3),
        large: weight.default(2),
      })
      .strict()
      .refine((m) => m.small + m.medium + m.large > 0, {
        message: 'at least one of small, medium or large must be above 0',
      })
      .default({ small: 5, medium: 3, large: 2 })
      .describe(
        'Relative weights of small (150-1,200 tokens), medium (1,500-6,000) and large (8,000-24,000) file reads.',
      ),
    todos: z
      .string()
      .min(1)
      .nullable()
      .default('todos')
      .describe('The checklist region the agent keeps its todos in; null for an agent without one.'),
    transitionTo: z
      .string()
      .min(1)
      .nullable()
      .default('implement')
      .describe('The stage the agent moves to when analysis is done; null for a single-stage run.'),
    analyzeShare: z
      .number()
      .min(0.05)
      .max(0.95)
      .default(0.35)
      .describe('Share of the events spent analyzing before the transition.'),
    inlineResults: z
      .boolean()
      .default(false)
      .describe('Tool results as multi-line text instead of `size_tokens` filler (for scripts that read content).'),
  })
  .strict();
export type CodingAgentParams = z.infer<typeof CodingAgentParamsSchema>;

const SIZE_CLASSES = [
  { name: 'small', min: 150, max: 1_200 },
  { name: 'medium', min: 1_500, max: 6_000 },
  { name: 'large', min: 8_000, max: 24_000 },
] as const;
const FILES_PER_CLASS = 16;

const DIRS = ['src/parser', 'src/engine', 'src/cli', 'src/net', 'src/storage', 'tests'];
const STEMS = [
  'lexer',
  'header',
  'token',
  'cache',
  'config',
  'request',
  'stream',
  'index',
  'batch',
  'limits',
  'router',
  'session',
  'buffer',
  'schema',
  'errors',
  'retry',
  'queue',
  'metrics',
  'table',
  'codec',
];
const PATTERNS = [
  'fn parse_header',
  'TODO',
  'unwrap()',
  'impl Display',
  'struct Config',
  'max_len',
  'Error::Io',
  '#[test]',
  'pub fn new',
  'timeout',
];
const COMMANDS = ['cargo test', 'cargo test parser', 'cargo build', 'cargo clippy', 'git diff --stat', 'ls src'];
const TODO_VERBS = ['Find where', 'Check how', 'Write a test for how', 'Fix how', 'Document how'];
const TODO_SUBJECTS = [
  'headers are parsed',
  'empty lines are handled',
  'errors reach the caller',
  'the cache is invalidated',
  'limits are enforced',
  'retries back off',
  'config defaults load',
];

interface SourceFile {
  path: string;
  tokens: number;
}

/** What the assistant says as it calls a tool, so the request preview reads like a real run. */
function describeCall(call: PlannedCall): string {
  const args = call.arguments;
  if (call.name === 'read_file') return `Reading ${String(args.path)}.`;
  if (call.name === 'grep') return `Searching for "${String(args.pattern)}".`;
  return `Running \`${String(args.command)}\`.`;
}

/** Fixed file pools per size class, so reading the same path twice returns the same size. */
function makeFilePools(random: Random): SourceFile[][] {
  const used = new Set<string>();
  return SIZE_CLASSES.map((size) => {
    const pool: SourceFile[] = [];
    while (pool.length < FILES_PER_CLASS) {
      const path = `${random.pick(DIRS)}/${random.pick(STEMS)}${random.int(0, 9) || ''}.rs`;
      if (used.has(path)) continue;
      used.add(path);
      pool.push({ path, tokens: random.int(size.min, size.max) });
    }
    return pool;
  });
}

class CodingAgent {
  private readonly traffic = new TrafficBuilder();
  private readonly pools: SourceFile[][];
  private readonly classWeights: number[];
  private readonly open: number[] = [];
  private turnsUntilDone = 4;

  constructor(
    private readonly random: Random,
    private readonly params: CodingAgentParams,
  ) {
    this.pools = makeFilePools(random);
    const { small, medium, large } = params.fileSizes;
    this.classWeights = [small, medium, large];
  }

  run(steps: number) {
    const { todos, transitionTo, analyzeShare } = this.params;
    this.traffic.user('Please start on the task. Read what you need before changing anything.');
    if (todos) for (let i = 0; i < 3; i++) this.addTodo(todos);
    const analyzeEnd = Math.round(steps * analyzeShare);
    while (this.traffic.length < analyzeEnd) this.iteration('analyze');
    if (transitionTo) this.enterImplement(transitionTo);
    // Leave room for the closing summary.
    while (this.traffic.length < steps - 1) this.iteration('implement');
    this.traffic.assistant(`Done. ${prose(this.random, this.random.int(20, 60))}`);
    return this.traffic.events;
  }

  /** One refused attempt while an item is open, then the work is finished and the gate opens. */
  private enterImplement(stage: string): void {
    const { todos } = this.params;
    if (todos) {
      if (this.open.length === 0) this.addTodo(todos);
      this.traffic.transition(stage);
      while (this.open.length > 0) this.closeTodo(todos);
    }
    this.traffic.transition(stage);
    this.traffic.user(`Good, the analysis is done. Now make the change in the ${stage} stage.`);
    if (todos) for (let i = 0; i < 3; i++) this.addTodo(todos);
  }

  private iteration(phase: 'analyze' | 'implement'): void {
    const { random } = this;
    const { todos } = this.params;
    if (random.chance(0.08)) {
      this.traffic.assistant(prose(random, random.int(15, 80)));
      this.traffic.user(prose(random, random.int(5, 40)));
      return;
    }
    const callCount = random.weighted([6, 3, 1]) + 1;
    const calls = Array.from({ length: callCount }, () => this.plannedCall(phase));
    this.traffic.toolTurn(calls.map(describeCall).join(' '), calls);
    if (!todos) return;
    // An item is done every few tool turns; analysis keeps one open so the gate has something to refuse.
    const keepOpen = phase === 'analyze' ? 1 : 0;
    if (--this.turnsUntilDone <= 0 && this.open.length > keepOpen) {
      this.closeTodo(todos);
      this.turnsUntilDone = random.int(3, 8);
    }
    if (this.open.length < 6 && random.chance(this.open.length < 3 ? 0.25 : 0.04)) this.addTodo(todos);
    if (this.open.length > 0 && random.chance(0.03)) {
      this.traffic.todoNote(todos, random.pick(this.open), `Blocked: ${prose(random, random.int(5, 15))}`);
    }
  }

  private plannedCall(phase: 'analyze' | 'implement'): PlannedCall {
    const tool = this.random.weighted(phase === 'analyze' ? [55, 35, 10] : [35, 15, 50]);
    if (tool === 0) return this.readFile();
    if (tool === 1) return this.grep();
    return this.shell(phase);
  }

  private readFile(): PlannedCall {
    const { random } = this;
    const file = random.pick(itemAt(this.pools, random.weighted(this.classWeights)));
    if (random.chance(0.03)) {
      const path = file.path.replace(/\.rs$/, '_old.rs');
      return this.failure('read_file', { path }, `ERROR: no such file: ${path}`);
    }
    return this.success('read_file', { path: file.path }, file.tokens, `${file.path}`);
  }

  private grep(): PlannedCall {
    const { random } = this;
    const pattern = random.pick(PATTERNS);
    return this.success('grep', { pattern, path: 'src' }, random.int(40, 900), `grep "${pattern}": matches`);
  }

  private shell(phase: 'analyze' | 'implement'): PlannedCall {
    const { random } = this;
    const command = random.pick(COMMANDS);
    if (command.startsWith('cargo test') && random.chance(phase === 'implement' ? 0.3 : 0.1)) {
      const failure = `ERROR: test ${random.pick(STEMS)}::tests::${random.pick(STEMS)}_${random.int(1, 40)} failed`;
      return this.failure('shell', { command }, `${failure}\n${lines(random, random.int(30, 200))}`);
    }
    return this.success('shell', { command }, random.int(100, 2_500), `$ ${command}: exit 0`);
  }

  private success(name: string, args: Record<string, unknown>, tokens: number, header: string): PlannedCall {
    if (!this.params.inlineResults) return { name, arguments: args, result: { size_tokens: tokens } };
    // This prose runs at roughly three words to four tokens.
    const body = lines(this.random, Math.max(1, Math.round(tokens * 0.75)));
    return { name, arguments: args, result: { content: `${header}\n${body}` } };
  }

  private failure(name: string, args: Record<string, unknown>, content: string): PlannedCall {
    return { name, arguments: args, result: { content }, isError: true };
  }

  private addTodo(region: string): void {
    const item = `${this.random.pick(TODO_VERBS)} ${this.random.pick(TODO_SUBJECTS)}`;
    this.open.push(this.traffic.todoAdd(region, item));
  }

  /** Closes the oldest open item: work tends to finish in the order it was planned. */
  private closeTodo(region: string): void {
    const id = this.open.shift();
    if (id !== undefined) this.traffic.todoDone(region, id);
  }
}

export function codingAgent(random: Random, steps: number, params: CodingAgentParams) {
  return new CodingAgent(random, params).run(steps);
}
