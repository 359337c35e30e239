/// <reference lib="webworker" />
// The trace-import worker: reads a dropped or chosen file and imports it as a trace, off the
// page's thread, reporting progress while it reads (first half) and parses (second half).
// Its messages are trace-protocol.ts's, checked on arrival on both sides.
import { importTrace, ImportError, MAX_TRACE_BYTES, UnknownFormatError, type ImportReport } from '../import/index.ts';
import type { Scenario } from '../engine/scenario.ts';
import { jsonLengthAtLeast } from '../state/jsonSize.ts';
import { TraceImportRequestSchema, type TraceImportResponse } from './trace-protocol.ts';
import { describeIssues } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;
const post = (message: TraceImportResponse) => self.postMessage(message);

/** The file's bytes, read in chunks so progress can be shown; importTrace decodes them (and checks the UTF-8). */
async function readBytes(file: File, onShare: (share: number) => void): Promise<Uint8Array> {
  const reader = file.stream().getReader();
  const bytes = new Uint8Array(file.size);
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value, read);
    read += value.byteLength;
    onShare(file.size === 0 ? 1 : read / file.size);
  }
  return bytes.subarray(0, read);
}

/** A Leviath scenario has a version and an agent; the page's scenario import handles those. */
function isScenario(bytes: Uint8Array): boolean {
  const text = new TextDecoder().decode(bytes);
  if (!text.trimStart().startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && 'version' in value && 'agent' in value;
  } catch {
    return false;
  }
}

/** About how much JSON one traffic part holds: a part the page copies in a few milliseconds. */
const PART_LENGTH = 1_000_000;

/** Sends the scenario's traffic in parts of about PART_LENGTH characters, then the rest of it. */
function postScenario(id: number, scenario: Scenario, report: ImportReport): void {
  let part: Scenario['traffic'] = [];
  let length = 0;
  for (const event of scenario.traffic) {
    part.push(event);
    length += jsonLengthAtLeast(event);
    if (length >= PART_LENGTH) {
      post({ id, type: 'traffic', events: part });
      part = [];
      length = 0;
    }
  }
  if (part.length > 0) post({ id, type: 'traffic', events: part });
  post({ id, type: 'imported', scenario: { ...scenario, traffic: [] }, report });
}

self.onmessage = async (event: MessageEvent<unknown>) => {
  const parsed = TraceImportRequestSchema.safeParse(event.data);
  if (!parsed.success) {
    const id = typeof event.data === 'object' && event.data !== null && typeof (event.data as { id?: unknown }).id === 'number' ? (event.data as { id: number }).id : 0;
    post({ id, type: 'failed', message: `bad request: ${describeIssues(parsed.error)}` });
    return;
  }
  const { id, file, toolMap, agent, format } = parsed.data;
  try {
    if (file.size > MAX_TRACE_BYTES) throw new Error(`${file.name} is ${(file.size / 1e6).toFixed(0)} MB; traces up to ${MAX_TRACE_BYTES / 1e6} MB can be imported`);
    let last = 0;
    const progress = (share: number) => {
      if (share - last < 0.02 && share < 1) return;
      last = share;
      post({ id, type: 'progress', share });
    };
    const bytes = await readBytes(file, (s) => progress(s / 2));
    if (!file.name.endsWith('.jsonl') && isScenario(bytes)) { post({ id, type: 'scenario' }); return; }
    const { scenario, report } = importTrace(bytes, { toolMap, ...(agent ? { agent } : {}), ...(format ? { format } : {}), name: file.name.replace(/\.(jsonl?|json)$/, ''), progress: (s) => progress(0.5 + s / 2) });
    postScenario(id, scenario, report);
  } catch (error) {
    const message = error instanceof ImportError ? `${file.name}: ${error.message}` : error instanceof Error ? error.message : String(error);
    post({ id, type: 'failed', message, ...(error instanceof UnknownFormatError ? { unknownFormat: true } : {}) });
  }
};
