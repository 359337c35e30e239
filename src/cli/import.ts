// `lev import TRACE [--agent DIR|agent.leviath] [--format NAME] [--tool-map A=B,...] [-o FILE] [--json]`:
// an agent's real run (an API body or a session log) as a scenario. The scenario goes to stdout
// (or FILE); what was imported and what was left out goes to stderr, so stdout stays a clean file.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { fmt as n } from '../engine/format.ts';
import { describeReport, FORMAT_LABELS, FORMAT_NAMES, ImportError, importTrace, MAX_TRACE_BYTES, parseToolMap, UnknownFormatError, type FormatName } from '../import/index.ts';
import { subagentRuns } from './subagents.ts';
import { EXIT_FINDINGS, EXIT_OK, parseArgs, unknownFlag, usageError, type Command } from './io.ts';

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
  for (const name of VALUED) if (parsed.flags.get(name) === true) return usageError(`import: --${name} needs a value\n${USAGE}`);
  const flag = (name: string) => parsed.flags.get(name) as string | undefined;
  const json = parsed.flags.has('json');

  const format = flag('format');
  if (format !== undefined && !FORMAT_NAMES.includes(format as FormatName)) return usageError(`import: unknown --format "${format}"; use one of ${FORMAT_NAMES.join(', ')}`);
  let toolMap;
  try {
    toolMap = flag('tool-map') === undefined ? undefined : parseToolMap(flag('tool-map')!);
  } catch (error) {
    return usageError(`import: ${(error as Error).message}`);
  }
  const agent = flag('agent') === undefined ? undefined : await readAgent(flag('agent')!);
  if (typeof agent === 'string') return usageError(`import: ${agent}`);

  const file = parsed.positional[0]!;
  const bytes = readTrace(file);
  if (!(bytes instanceof Uint8Array)) return usageError(`import: ${bytes.error}`);
  let result;
  try {
    result = importTrace(bytes, { ...(format ? { format: format as FormatName } : {}), ...(toolMap ? { toolMap } : {}), ...(agent ? { agent } : {}), name: basename(file, extname(file)) });
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    // Detection failed: the CLI's way to say which format it is.
    const hint = error instanceof UnknownFormatError && format === undefined ? `; if it is one of them, name it with --format (${FORMAT_NAMES.join(', ')})` : '';
    if (json) console.log(JSON.stringify({ diagnostics: [{ code: 'trace-invalid', severity: 'error', message: `${error.problem}; expected ${error.expected}${hint}`, file, line: error.where.line ?? 1, column: 1, path: error.where.path }] }));
    else console.error(`${file}: error [trace-invalid] ${error.message}${hint}`);
    return EXIT_FINDINGS;
  }
  // A Claude Code session's sub-agents ran in files of their own beside it: say where, and how big.
  const subagents = result.report.format === 'claude-code' ? subagentRuns(file) : [];
  const scenarioText = `${JSON.stringify(result.scenario, null, 2)}\n`;
  const output = flag('output');
  if (output !== undefined) writeFileSync(output, scenarioText);
  const report = subagents.length ? { ...result.report, subagents } : result.report;
  if (json) console.log(JSON.stringify(output === undefined ? { report, scenario: result.scenario } : { report, output }));
  else {
    if (output === undefined) process.stdout.write(scenarioText);
    const lines = describeReport(result.report, output);
    if (subagents.length) {
      lines.push(`sub-agent runs (each imports on its own: lev import FILE): ${subagents.map((a) => `${a.file} (${a.inferences === undefined ? a.error : `${n(a.inferences)} inferences`})`).join(', ')}`);
    }
    console.error(lines.join('\n'));
  }
  return EXIT_OK;
};

/** The file's bytes: importTrace decodes them and reports where they stop being valid UTF-8. */
function readTrace(file: string): Uint8Array | { error: string } {
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) return { error: `${file} is a directory; pass a trace file` };
    if (stats.size > MAX_TRACE_BYTES) return { error: `${file} is over ${n(MAX_TRACE_BYTES)} bytes; split the trace` };
  } catch {
    return { error: `${file}: no such file` };
  }
  return readFileSync(file);
}

/**
 * An agent directory, or an agent.leviath file (its directory holds the scripts). The blueprint
 * reader (and the compiler and Rhai it brings) loads only when --agent is given: an import without
 * one starts a third of a second sooner.
 */
async function readAgent(path: string): Promise<Record<string, string> | string> {
  const [{ AGENT_FILE }, { readAgentDir }] = await Promise.all([import('../engine/blueprint/index.ts'), import('./validate.ts')]);
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      if (!statSync(`${path}/${AGENT_FILE}`, { throwIfNoEntry: false })?.isFile()) return `--agent ${path} has no ${AGENT_FILE}`;
      return readAgentDir(path);
    }
    return readAgentDir(dirname(path), readFileSync(path, 'utf8'));
  } catch {
    return `--agent ${path}: no such file or directory`;
  }
}
