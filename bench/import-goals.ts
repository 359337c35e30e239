// The as-sent replay's goals, measured on real traces that are not in the project's tests:
//   npx tsx bench/import-goals.ts TRACE...      (npm run bench reads the files in $LEV_REAL_TRACES)
// For each trace: the real API calls are counted from the file itself; the provider's recorded
// usage of every call but the first 10% is removed from the file's text before import (so nothing
// the importer or the calibration reads can carry it); the run is replayed as sent; and each call's
// request is compared with the usage the untouched file recorded. Goals (issue 28): one inference
// per real call; prompt tokens within a median of 5% and a p90 of 15%; cache-read share within
// 0.05 on average; each recorded compaction shows as the drop it was.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { replayAsRecorded, CALIBRATION_SHARE, loadEncodings, type TrafficEvent } from '../src/engine/index.ts';
import { importTrace, type FormatName } from '../src/import/index.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const lines = (text: string) => text.split('\n').filter((l) => l.trim().length > 0);

/**
 * Each format's real API calls, counted from the file, and its text with the usage of calls from
 * `keep` on removed (no `strip`: the format records no per-call usage, so only the calls are measured).
 */
interface Reader {
  calls: (text: string) => number;
  strip?: (text: string, keep: number) => string;
}

const mainOf = (entries: Obj[]) => {
  const tools = (e: Obj) =>
    isObj(e.request) && isObj(e.request.body) && Array.isArray(e.request.body.tools) ? e.request.body.tools.length : -1;
  const most = Math.max(...entries.map(tools));
  return entries.map(
    (e) => tools(e) === most && isObj(e.request) && isObj(e.request.body) && Array.isArray(e.request.body.messages),
  );
};

const READERS: Partial<Record<FormatName, Reader>> = {
  'claude-trace': {
    calls: (text) => mainOf(lines(text).map((l) => JSON.parse(l) as Obj)).filter(Boolean).length,
    strip: (text, keep) => {
      const entries = lines(text).map((l) => JSON.parse(l) as Obj);
      const main = mainOf(entries);
      let k = 0;
      return entries
        .map((e, i) => {
          if (main[i] && k++ >= keep) {
            const response = e.response as Obj;
            if (isObj(response.body)) delete response.body.usage;
            if (typeof response.body_raw === 'string') {
              response.body_raw = response.body_raw
                .split('\n')
                .map((line) => {
                  if (!line.startsWith('data:')) return line;
                  const event = JSON.parse(line.slice(5)) as Obj;
                  delete event.usage;
                  if (isObj(event.message)) delete event.message.usage;
                  return `data: ${JSON.stringify(event)}`;
                })
                .join('\n');
            }
          }
          return JSON.stringify(e);
        })
        .join('\n');
    },
  },
  openhands: {
    calls: (text) =>
      new Set(
        events(JSON.parse(text))
          .filter((e) => e.action !== undefined)
          .map(responseId)
          .filter(Boolean),
      ).size,
    strip: (text, keep) => {
      const json = JSON.parse(text) as unknown;
      const order: string[] = [];
      for (const e of events(json)) {
        const id = responseId(e);
        if (id && e.action !== undefined && !order.includes(id)) order.push(id);
      }
      const kept = new Set(order.slice(0, keep));
      for (const e of events(json)) {
        const id = responseId(e);
        if (id && !kept.has(id)) delete ((e.tool_call_metadata as Obj).model_response as Obj).usage;
      }
      if (isObj(json) && isObj(json.metrics)) delete json.metrics;
      return JSON.stringify(json);
    },
  },
  'claude-code': {
    calls: (text) =>
      new Set(claudeCodeCalls(lines(text).map((l) => JSON.parse(l) as Obj)).map((e) => (e.message as Obj).id)).size,
    strip: (text, keep) => {
      const entries = lines(text).map((l) => JSON.parse(l) as Obj);
      const calls = new Set(claudeCodeCalls(entries));
      const seen: unknown[] = [];
      return entries
        .map((e) => {
          if (calls.has(e) && isObj(e.message)) {
            if (!seen.includes(e.message.id)) seen.push(e.message.id);
            if (seen.indexOf(e.message.id) >= keep) delete e.message.usage;
          }
          return JSON.stringify(e);
        })
        .join('\n');
    },
  },
  'claude-stream-json': {
    calls: (text) =>
      new Set(
        lines(text)
          .map((l) => JSON.parse(l) as Obj)
          .filter((e) => e.type === 'assistant' && typeof e.parent_tool_use_id !== 'string' && isObj(e.message))
          .map((e) => (e.message as Obj).id),
      ).size,
    strip: (text, keep) => {
      const seen: unknown[] = [];
      return lines(text)
        .map((l) => {
          const e = JSON.parse(l) as Obj;
          if (e.type === 'assistant' && typeof e.parent_tool_use_id !== 'string' && isObj(e.message)) {
            if (!seen.includes(e.message.id)) seen.push(e.message.id);
            if (seen.indexOf(e.message.id) >= keep) delete e.message.usage;
          }
          // The closing line's totals are usage too.
          if (e.type === 'result') {
            delete e.usage;
            delete e.modelUsage;
          }
          return JSON.stringify(e);
        })
        .join('\n');
    },
  },
  // SWE-agent keeps only the run's totals (info.model_stats), mini-swe-agent no usage at all.
  'swe-agent': {
    calls: (text) => {
      const info = (JSON.parse(text) as Obj).info;
      const stats = isObj(info) && isObj(info.model_stats) ? info.model_stats : undefined;
      return typeof stats?.api_calls === 'number' ? stats.api_calls : 0;
    },
  },
  'mini-swe-agent': {
    calls: (text) => {
      const json = JSON.parse(text) as unknown;
      const messages = Array.isArray(json) ? json : isObj(json) && Array.isArray(json.messages) ? json.messages : [];
      return (messages as unknown[]).filter((m) => isObj(m) && m.role === 'assistant').length;
    },
  },
  codex: {
    calls: (text) => new Set(tokenCounts(text).map((c) => c.call)).size,
    strip: (text, keep) => {
      // Every token_count line of a call past the calibration's goes, its repeats too.
      const drop = new Set(
        tokenCounts(text)
          .filter((c) => c.call >= keep)
          .map((c) => c.line),
      );
      return lines(text)
        .filter((_, i) => !drop.has(i))
        .join('\n');
    },
  },
};

/** A Claude Code file's assistant lines that are API calls: the main agent's, or every one in a sub-agent's file (all side chain). */
function claudeCodeCalls(entries: Obj[]): Obj[] {
  const assistant = entries.filter(
    (e) => e.type === 'assistant' && isObj(e.message) && e.message.model !== '<synthetic>',
  );
  const conversation = entries.filter((e) => e.type === 'assistant' || e.type === 'user');
  const subAgent = conversation.length > 0 && conversation.every((e) => e.isSidechain === true);
  return subAgent ? assistant : assistant.filter((e) => e.isSidechain !== true);
}

function events(json: unknown): Obj[] {
  if (Array.isArray(json)) return json as Obj[];
  if (isObj(json))
    return (
      Array.isArray(json.trajectory) ? json.trajectory : Array.isArray(json.history) ? json.history : []
    ) as Obj[];
  return [];
}

function responseId(e: Obj): string | undefined {
  const meta = isObj(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
  const response = meta && isObj(meta.model_response) ? meta.model_response : undefined;
  return response && typeof response.id === 'string' ? response.id : undefined;
}

/** Codex's token_count lines with usage and the call each reports (a repeat of the same running total is the same call again). */
function tokenCounts(text: string): { line: number; call: number }[] {
  const out: { line: number; call: number }[] = [];
  let last: unknown;
  let call = -1;
  lines(text).forEach((l, i) => {
    const e = JSON.parse(l) as Obj;
    const payload = isObj(e.payload) ? e.payload : undefined;
    const info = payload?.type === 'token_count' && isObj(payload.info) ? payload.info : undefined;
    if (!info) return;
    const total = isObj(info.total_token_usage) ? info.total_token_usage.total_tokens : undefined;
    if (total === undefined || total !== last) call++;
    last = total;
    out.push({ line: i, call });
  });
  return out;
}

export interface GoalRow {
  file: string;
  format: string;
  /** Real API calls counted from the file, and the inferences the import made. */
  fileCalls: number;
  inferences: number;
  calibration: string;
  compared: number;
  medianError: number;
  p90Error: number;
  cacheShareError?: number;
  /**
   * Of the cache-read share error, the calls whose recorded read fell back to an older cache entry:
   * the request only extends the one before (tool results since it, no new user turn), within the
   * cache's lifetime, and the provider read at least 0.1 of the prompt less than the as-sent replay,
   * exactly as many tokens as an earlier call of the run read (an entry it had found before). How
   * many, their part of the mean, and the mean over the other calls.
   */
  fellBack?: { calls: number; share: number; rest: number };
  /** Each recorded compaction: recorded before -> after, and as sent before -> after. */
  compactions: string[];
  /** Why nothing was compared, when the file records no per-call usage. */
  note?: string;
}

const quantile = (sorted: number[], q: number) => {
  if (!sorted.length) return 0;
  const at = (sorted.length - 1) * q;
  return sorted[Math.floor(at)]! + (sorted[Math.ceil(at)]! - sorted[Math.floor(at)]!) * (at - Math.floor(at));
};

/** The trace's real calls counted from the file, and its text with the usage of all but the first 10% of them removed. */
export function stripUsage(
  text: string,
  format: FormatName,
  path = 'the trace',
): { fileCalls: number; keep: number; text: string } {
  const reader = READERS[format];
  if (!reader) throw new Error(`${path}: no call counter for the ${format} format yet`);
  const fileCalls = reader.calls(text);
  const keep = Math.floor(fileCalls * CALIBRATION_SHARE);
  return { fileCalls, keep, text: reader.strip ? reader.strip(text, keep) : text };
}

export function measureGoals(path: string): GoalRow {
  const text = readFileSync(path, 'utf8');
  const full = importTrace(text);
  const format = full.report.format;
  const { fileCalls, keep, text: strippedText } = stripUsage(text, format, path);
  const stripped = importTrace(strippedText);
  const recorded = (traffic: TrafficEvent[]) => traffic.flatMap((e) => (e.type === 'assistant' ? [e.recorded] : []));
  const truth = recorded(full.scenario.traffic);
  if (!truth.some(Boolean)) {
    return {
      file: basename(path),
      format,
      fileCalls,
      inferences: full.report.inferences,
      calibration: 'none',
      compared: 0,
      medianError: 0,
      p90Error: 0,
      compactions: [],
      note: 'no per-call usage in the file: calls only',
    };
  }
  const left = recorded(stripped.scenario.traffic).filter(Boolean).length;
  if (left > keep) throw new Error(`${path}: ${left} calls still carry usage after stripping all but ${keep}`);
  const t = replayAsRecorded(stripped.scenario);
  const requests = t.steps.flatMap((s) => (s.request ? [s.request] : []));
  // Whether only tool results came between each inference and the one before (the request extends it).
  const extendsPrevious: boolean[] = [];
  let plain = true;
  for (const event of stripped.scenario.traffic) {
    if (event.type === 'assistant') {
      extendsPrevious.push(plain);
      plain = true;
    } else if (event.type === 'user' || event.type === 'compaction') plain = false;
  }
  const errors: number[] = [];
  const shares: number[] = [];
  const fell: number[] = [];
  requests.forEach((q, i) => {
    const r = truth[i];
    if (!r || q.calibration || r.promptTokens === 0) return;
    errors.push(Math.abs(q.requestTokens - r.promptTokens) / r.promptTokens);
    if (r.cacheReadTokens === undefined) return;
    const recordedShare = r.cacheReadTokens / r.promptTokens;
    const asSentShare = q.cache.cacheReadTokens / q.requestTokens;
    shares.push(Math.abs(asSentShare - recordedShare));
    const read = r.cacheReadTokens;
    if (
      i > 0 &&
      extendsPrevious[i] &&
      !/^(first call|cache expired)/.test(q.cache.rule) &&
      recordedShare < asSentShare - 0.1 &&
      truth.slice(0, i).some((e) => e?.cacheReadTokens === read)
    )
      fell.push(Math.abs(asSentShare - recordedShare));
  });
  errors.sort((a, b) => a - b);
  // A compaction's drop: the calls on either side of it, as recorded (untouched file) and as sent.
  const compactions: string[] = [];
  let inference = 0;
  for (const event of stripped.scenario.traffic) {
    if (event.type === 'assistant') inference++;
    if (event.type !== 'compaction' || inference === 0 || inference >= requests.length) continue;
    const [before, after] = [inference - 1, inference];
    const rec = (i: number) => truth[i]?.promptTokens.toLocaleString('en-US') ?? '?';
    compactions.push(
      `recorded ${rec(before)} -> ${rec(after)}, as sent ${requests[before]!.requestTokens.toLocaleString('en-US')} -> ${requests[after]!.requestTokens.toLocaleString('en-US')}`,
    );
  }
  const cal = t.summary.recorded?.calibration;
  return {
    file: basename(path),
    format,
    fileCalls,
    inferences: stripped.report.inferences,
    calibration: cal
      ? `calls ${cal.calls.join(', ') || 'none'}; overhead ${cal.overheadTokens.toLocaleString('en-US')}, factor ${cal.factor.toFixed(3)} (${cal.factorSource}), ${cal.perMessageTokens.toFixed(1)} per message`
      : 'none',
    compared: errors.length,
    medianError: quantile(errors, 0.5),
    p90Error: quantile(errors, 0.9),
    ...(shares.length ? { cacheShareError: sum(shares) / shares.length } : {}),
    ...(shares.length
      ? {
          fellBack: {
            calls: fell.length,
            share: sum(fell) / shares.length,
            rest: shares.length > fell.length ? (sum(shares) - sum(fell)) / (shares.length - fell.length) : 0,
          },
        }
      : {}),
    compactions,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);

const fellBackText = (f: GoalRow['fellBack']) =>
  !f ? '' : f.calls === 0 ? 'none' : `${f.calls} calls, ${f.share.toFixed(3)} (the others: ${f.rest.toFixed(3)})`;

export function goalsTable(rows: GoalRow[]): string {
  const out = [
    '| trace | format | real calls / inferences | calibration (first 10%) | compared | median error | p90 error | cache-read share error | of it: reads that fell back to an earlier entry | compactions |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const calls = `${r.fileCalls} / ${r.inferences}${r.fileCalls === r.inferences ? '' : ' **(differ)**'}`;
    if (r.note) {
      out.push(`| ${r.file} | ${r.format} | ${calls} | ${r.note} | 0 | | | | | |`);
      continue;
    }
    out.push(
      `| ${r.file} | ${r.format} | ${calls} | ${r.calibration} | ${r.compared} | ${pct(r.medianError)}${r.medianError <= 0.05 ? '' : ' **(over 5%)**'} | ${pct(r.p90Error)}${r.p90Error <= 0.15 ? '' : ' **(over 15%)**'} | ${r.cacheShareError === undefined ? '' : `${r.cacheShareError.toFixed(3)}${r.cacheShareError <= 0.05 ? '' : ' **(over 0.05)**'}`} | ${fellBackText(r.fellBack)} | ${r.compactions.join('; ') || 'none'} |`,
    );
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await loadEncodings();
  const paths = process.argv.slice(2);
  if (!paths.length) {
    console.error('usage: npx tsx bench/import-goals.ts TRACE...');
    process.exit(2);
  }
  const rows: GoalRow[] = [];
  for (const path of paths) {
    try {
      rows.push(measureGoals(path));
    } catch (error) {
      // One file that does not import says why and the others are still measured.
      console.error(`${path}: ${(error as Error).message}`);
    }
  }
  console.log(goalsTable(rows));
}
