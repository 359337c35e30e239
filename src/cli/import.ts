// `lev import TRACE [--agent DIR|agent.leviath] [--format NAME] [--tool-map A=B,...] [-o FILE] [--json]`:
// an agent's real run (an API body or a session log) as a scenario. The scenario goes to stdout
// (or FILE); what was imported and what was left out goes to stderr, so stdout stays a clean file.
import { statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import {
  AGENT_FILE,
  MAX_SCENARIO_BYTES,
  MAX_TRACE_BYTES,
  fmt as n,
  loadEncodings,
  preflight,
  resolveModel,
  itemAt,
} from '../engine/index.ts';
import {
  describeReport,
  FORMAT_LABELS,
  FORMAT_NAMES,
  ImportError,
  importTrace,
  parseToolMap,
  UnknownFormatError,
  type FormatName,
} from '../import/index.ts';
import { EncodingError, encodingAdvice } from '../import/utf8.ts';
import { BUILT_IN_TRAFFIC } from '../scenarios/generators.ts';
import { RHAI } from '../engine/custom-script.ts';
import { fileSize, scenarioFile } from '../share/file.ts';
import { subagentRuns } from './subagents.ts';
import {
  EXIT_FINDINGS,
  EXIT_OK,
  inputFinding,
  parseArgs,
  readBytes,
  readProblem,
  unknownFlag,
  usageError,
  type Command,
  type InputLimit,
} from './io.ts';
import { AgentFileError, readAgentDir, readBlueprintFile } from './validate.ts';

export const USAGE = `usage: lev import TRACE [--agent DIR|agent.leviath] [--format NAME] [--tool-map A=B,...] [-o scenario.json] [--json]

  TRACE        an agent's run, in any of these formats (detected from the content):
${FORMAT_NAMES.map((f) => `                 ${f.padEnd(20)} ${FORMAT_LABELS[f]}`).join('\n')}
  --agent      the blueprint to replay the run through (default: a starting layout to edit)
  --format     force one of the formats above instead of detecting it
  --tool-map   trace tool names -> blueprint tool names, added to the defaults (Read=read_file, Bash=shell, ...)
  -o FILE      write the scenario to FILE instead of stdout
  --json       print {"report", "scenario"} (or diagnostics) as JSON`;

const VALUED = ['agent', 'format', 'tool-map', 'output'];

export const run: Command = async (rawArgs) => {
  const args = rawArgs.map((a) => (a === '-o' ? '--output' : a));
  const parsed = parseArgs(args, VALUED);
  const bad = unknownFlag(parsed, ['json', ...VALUED]);
  if (bad) return usageError(`import: unknown option --${bad}\n${USAGE}`);
  if (parsed.positional.length !== 1) return usageError(`import: expected one TRACE file\n${USAGE}`);
  for (const name of VALUED)
    if (parsed.flags.get(name) === true) return usageError(`import: --${name} needs a value\n${USAGE}`);
  const flag = (name: string) => parsed.flags.get(name) as string | undefined;
  const json = parsed.flags.has('json');

  const format = flag('format');
  if (format !== undefined && !FORMAT_NAMES.includes(format as FormatName))
    return usageError(`import: unknown --format "${format}"; use one of ${FORMAT_NAMES.join(', ')}`);
  let toolMap;
  try {
    toolMap = flag('tool-map') === undefined ? undefined : parseToolMap(flag('tool-map')!);
  } catch (error) {
    return usageError(`import: ${(error as Error).message}`);
  }
  const agent = flag('agent') === undefined ? undefined : readAgent(flag('agent')!);
  if (typeof agent === 'string') return usageError(`import: ${agent}`);

  const file = itemAt(parsed.positional, 0);
  // Findings about the input or the scenario it makes: printed as diagnostics, nothing written.
  const refuse = (code: string, message: string, line = 1, path = ''): number => {
    if (json)
      console.log(JSON.stringify({ diagnostics: [{ code, severity: 'error', message, file, line, column: 1, path }] }));
    else console.error(`${file}: error [${code}] ${message}`);
    return EXIT_FINDINGS;
  };
  let bytes: Uint8Array;
  try {
    bytes = readBytes(file, TRACE_INPUT);
  } catch (error) {
    const finding = inputFinding(error, file, 'trace-too-large');
    if (finding) return refuse(finding.code, finding.message);
    if ((error as NodeJS.ErrnoException).code === 'EISDIR')
      return usageError(`import: ${file} is a directory; pass a trace file`);
    const problem = readProblem(error, file);
    if (problem === undefined) throw error;
    return usageError(`import: ${problem}`);
  }
  let result;
  try {
    result = importTrace(bytes, {
      ...(format ? { format: format as FormatName } : {}),
      ...(toolMap ? { toolMap } : {}),
      ...(agent ? { agent } : {}),
      name: basename(file, extname(file)),
    });
  } catch (error) {
    if (error instanceof EncodingError) return refuse('not-utf8', encodingAdvice(file, error.found, 'cli'));
    if (!(error instanceof ImportError)) throw error;
    // Detection failed: the CLI's way to say which format it is.
    const hint =
      error instanceof UnknownFormatError && format === undefined
        ? `; if it is one of them, name it with --format (${FORMAT_NAMES.join(', ')})`
        : '';
    return refuse(
      'trace-invalid',
      `${json ? `${error.problem}; expected ${error.expected}` : error.message}${hint}`,
      error.where.line ?? 1,
      error.where.path,
    );
  }
  // The trace's bytes (as large as the trace) are not needed past the import: let them go before
  // the scenario's JSON is built.
  bytes = new Uint8Array(0);
  // What is written must read back: within the scenario file limit, and a scenario replay runs. The
  // JSON is encoded once: its size is the encoded bytes', and those bytes are what is written.
  let encoded: Buffer | undefined;
  const written = scenarioFile(result.scenario, MAX_SCENARIO_BYTES, (text) => (encoded = Buffer.from(text)).length);
  if (!written.ok) {
    return refuse(
      'scenario-too-large',
      `the imported scenario would be ${fileSize(written.bytes)} of JSON; lev replay and the page read scenario files up to ${n(MAX_SCENARIO_BYTES)} bytes, so nothing was written. Import part of the trace instead.`,
    );
  }
  // The replay's check counts tokens in the scenario model's encoding only.
  const model = resolveModel(result.scenario.model);
  await loadEncodings(model.ok ? [model.model.encoding] : undefined);
  const refused = preflight(result.scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).filter((d) => d.severity === 'error');
  if (refused.length > 0) {
    const why = refused.map((d) => `${d.file}:${d.line}:${d.column} [${d.code}] ${d.message}`).join('; ');
    return refuse(
      'scenario-would-not-replay',
      `lev replay would refuse the imported scenario, so nothing was written: ${why}${agent ? ' Fix the --agent blueprint, or import without --agent.' : ''}`,
    );
  }
  // A Claude Code session's sub-agents ran in files of their own beside it: say where, and how big.
  const subagents = result.report.format === 'claude-code' ? subagentRuns(file) : [];
  const scenarioText = written.text;
  const output = flag('output');
  if (output !== undefined) writeFileSync(output, encoded ?? scenarioText);
  const report = subagents.length ? { ...result.report, subagents } : result.report;
  if (json)
    console.log(JSON.stringify(output === undefined ? { report, scenario: result.scenario } : { report, output }));
  else {
    if (output === undefined) process.stdout.write(scenarioText);
    const lines = describeReport(result.report, output);
    if (subagents.length) {
      lines.push(
        `sub-agent runs (each imports on its own: lev import FILE): ${subagents.map((a) => `${a.file} (${a.inferences === undefined ? a.error : `${n(a.inferences)} inferences`})`).join(', ')}`,
      );
    }
    console.error(lines.join('\n'));
  }
  return EXIT_OK;
};

const TRACE_INPUT: InputLimit = {
  bytes: MAX_TRACE_BYTES,
  what: 'traces',
  advice: 'Import part of the session instead (split the file).',
};

/** An agent directory, or an agent.leviath file (its directory holds the scripts). */
function readAgent(path: string): Record<string, string> | string {
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      if (!statSync(`${path}/${AGENT_FILE}`, { throwIfNoEntry: false })?.isFile())
        return `--agent ${path} has no ${AGENT_FILE}`;
      return readAgentDir(path);
    }
    return readAgentDir(dirname(path), readBlueprintFile(path));
  } catch (error) {
    if (error instanceof AgentFileError) return `--agent ${path}: ${error.message}`;
    return `--agent ${path}: no such file or directory`;
  }
}
