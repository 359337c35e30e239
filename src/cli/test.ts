// `lev test SCENARIO [--step N] [--json] [--format anthropic|openai]`: the provider request at
// inference N (0-based, default 0) exactly as it would be sent, with every region's figures at that
// point; `--format` prints it as that provider's API body instead, ready to send.
import {
  type StepDetail,
  fmt as n,
  blueprintBreakdown,
  flatListBreakdown,
  InspectError,
  Replay,
  resolveModel,
  type WindowBreakdown,
} from '../engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../scenarios/generators.ts';
import { RHAI } from '../engine/custom-script.ts';
import { EXPORT_FORMATS, requestBody, type ExportFormat } from '../export/index.ts';
import { EXIT_FINDINGS, EXIT_OK, usageError, type Command } from './io.ts';
import { printDiagnostics, readScenarioArgs, table } from './replay.ts';

export const USAGE =
  "usage: lev test SCENARIO.json [--step N] [--json] [--format anthropic|openai]   (N: inference number, from 0; --format: the request as that API's body)";

export const run: Command = async (args) => {
  const read = readScenarioArgs(args, 'test', USAGE, ['step', 'format']);
  if ('exit' in read) return read.exit;
  const stepFlag = read.flags.get('step') ?? '0';
  if (stepFlag === true || !/^\d+$/.test(stepFlag))
    return usageError(`test: --step takes an inference number (0, 1, ...)\n${USAGE}`);
  const format = read.flags.get('format');
  if (format !== undefined && !EXPORT_FORMATS.includes(format as ExportFormat))
    return usageError(`test: --format takes ${EXPORT_FORMATS.join(' or ')}\n${USAGE}`);
  const replay = new Replay(read.scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  let detail: StepDetail;
  try {
    detail = replay.inspectInference(Number(stepFlag));
  } catch (error) {
    if (!(error instanceof InspectError)) throw error;
    const diagnostics = replay.diagnostics.filter((d) => d.severity === 'error');
    if (diagnostics.length) {
      if (read.json) console.log(JSON.stringify({ diagnostics: replay.diagnostics }));
      else printDiagnostics(replay.diagnostics);
      return EXIT_FINDINGS;
    }
    return usageError(`test: ${error.message}`);
  }
  // The scenario ran, so its model resolved.
  const model = resolveModel(read.scenario.model);
  if (!model.ok) return usageError(`test: ${model.error}`);
  if (format !== undefined) {
    console.log(JSON.stringify(requestBody(format as ExportFormat, detail.request, model.model), null, 2));
    return EXIT_OK;
  }
  const regions = detail.requestRegions ?? {};
  // The flat list stands in for the run as it was sent until a scenario records that run.
  const breakdown = {
    blueprint: blueprintBreakdown(detail, model.model.window),
    flatList: flatListBreakdown(detail, model.model.window) ?? null,
  };
  if (read.json) {
    console.log(
      JSON.stringify({
        step: detail.index,
        inference: Number(stepFlag),
        stage: detail.stage,
        tokens: detail.request.tokens,
        system: detail.request.system,
        messages: detail.request.messages,
        stripped: detail.request.stripped,
        regions,
        changes: detail.changes,
        warnings: detail.warnings,
        breakdown,
      }),
    );
    return EXIT_OK;
  }
  printRequest(detail, Number(stepFlag), regions);
  printBreakdown('through the blueprint', breakdown.blueprint);
  if (breakdown.flatList)
    printBreakdown('one flat message list (what the run would send without regions)', breakdown.flatList);
  return EXIT_OK;
};

/** A `/context`-style table: each part of the window as tokens and as a share of it. */
function printBreakdown(title: string, b: WindowBreakdown): void {
  console.log(
    `\nwhat fills the ${n(b.window)}-token window, ${title}: ${n(b.usedTokens)} tokens used${b.overWindow ? ' (OVER the window)' : ''}`,
  );
  const rows = [['part', 'tokens', 'share', 'budget']];
  for (const r of b.rows)
    rows.push([
      r.regionKind ? `${r.name} (${r.regionKind})` : r.name,
      n(r.tokens),
      percent(r.share),
      r.budget === undefined ? '' : n(r.budget),
    ]);
  console.log(table(rows, new Set([1, 2, 3])));
  const reach = b.rows.some((r) => r.kind !== 'free' && r.kind !== 'headroom' && r.budget === undefined)
    ? 'free space: what the list may still fill; it keeps no headroom, and drops its oldest messages only at the window'
    : 'free space: what the regions may still fill up to their budgets; reply headroom: what no budget covers, left for the reply';
  console.log(reach);
  console.log(
    b.overhead
      ? `harness overhead: ${b.overhead.source}`
      : 'harness overhead (its system prompt and tool definitions): not known for this scenario',
  );
}

// Below 1% a part still shows (0.02%), as the `/context` view does for small regions.
const percent = (share: number): string => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 2 : 1)}%`;

function printRequest(detail: StepDetail, inference: number, regions: NonNullable<StepDetail['requestRegions']>): void {
  const r = detail.request;
  console.log(`inference ${inference} (step ${detail.index}), stage ${detail.stage}: ${n(r.tokens)} tokens`);
  for (const block of r.system) {
    console.log(`\n--- system: ${block.region} (${n(block.tokens)} tokens, cache ${block.cache}) ---`);
    console.log(block.text);
  }
  for (const m of r.messages) {
    const extra = m.tool_call_id
      ? ` ${m.tool_call_id}`
      : m.tool_calls?.length
        ? ` calls ${m.tool_calls.map((c) => `${c.name}#${c.id}`).join(', ')}`
        : '';
    console.log(`\n--- ${m.role}${extra} [${m.region}] (${n(m.tokens)} tokens) ---`);
    console.log(m.content);
  }
  const stripped = r.stripped.toolCalls.length + r.stripped.toolResults.length;
  if (stripped)
    console.log(
      `\nstripped ${stripped} unpaired tool block${stripped === 1 ? '' : 's'}: ${[...r.stripped.toolCalls, ...r.stripped.toolResults].join(', ')}`,
    );
  const rows = [['region', 'tokens', 'budget', 'entries']];
  for (const [name, f] of Object.entries(regions))
    rows.push([name + (f.visible ? '' : ' (hidden)'), n(f.tokens), n(f.budget), n(f.entries)]);
  console.log(`\n${table(rows, new Set([1, 2, 3]))}`);
}
