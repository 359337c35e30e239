/// <reference lib="webworker" />
// The trace-import worker: reads a dropped or chosen file and imports it as a trace, off the
// page's thread, reporting progress while it reads (first half) and parses (second half).
// Its messages are trace-protocol.ts's, checked on arrival on both sides.
import { importTrace, ImportError, UnknownFormatError } from '../import/index.ts';
import { type Scenario, megabytes, MAX_TRACE_BYTES } from '../engine/index.ts';
import { decodeTrace, EncodingError, encodingAdvice } from '../import/utf8.ts';
import { jsonLengthAtLeast } from '../state/jsonSize.ts';
import { TraceImportRequestSchema, type TraceImportResponse } from './trace-protocol.ts';
import { describeIssues } from './protocol.ts';
import { readScenarioFile, scenarioJson } from './scenario-file.ts';

declare const self: DedicatedWorkerGlobalScope;
const post = (message: TraceImportResponse) => self.postMessage(message);

/** A file past the largest input the page reads (a trace's limit), found while reading it. */
class TooLargeError extends Error {}

/**
 * The file's bytes, read in chunks so progress can be shown, and counted as they come: a file
 * whose stream gives more than its stated size (or than the trace limit) stops at the limit.
 * importTrace decodes them (and checks the UTF-8).
 */
async function readBytes(file: File, onShare: (share: number) => void): Promise<Uint8Array> {
  if (file.size > MAX_TRACE_BYTES) throw new TooLargeError();
  const reader = file.stream().getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > MAX_TRACE_BYTES) {
      void reader.cancel();
      throw new TooLargeError();
    }
    chunks.push(value);
    onShare(file.size === 0 ? 1 : Math.min(1, read / file.size));
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

/** About how much JSON one traffic part holds: a part the page copies in a few milliseconds. */
const PART_LENGTH = 1_000_000;

/** Sends the scenario's traffic in parts of about PART_LENGTH characters, then `last` with the rest of it. */
function postInParts(id: number, scenario: Scenario, last: (rest: Scenario) => TraceImportResponse): void {
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
  post(last({ ...scenario, traffic: [] }));
}

self.onmessage = async (event: MessageEvent<unknown>) => {
  const parsed = TraceImportRequestSchema.safeParse(event.data);
  if (!parsed.success) {
    const id =
      typeof event.data === 'object' && event.data !== null && typeof (event.data as { id?: unknown }).id === 'number'
        ? (event.data as { id: number }).id
        : 0;
    post({ id, type: 'failed', message: `bad request: ${describeIssues(parsed.error)}` });
    return;
  }
  const { id, file, toolMap, agent, format } = parsed.data;
  try {
    let last = 0;
    const progress = (share: number) => {
      if (share - last < 0.02 && share < 1) return;
      last = share;
      post({ id, type: 'progress', share });
    };
    const bytes = await readBytes(file, (s) => progress(s / 2));
    if (!file.name.endsWith('.jsonl')) {
      const { text, invalidUtf8At } = decodeTrace(bytes);
      const json = scenarioJson(text);
      if (json !== undefined) {
        const result = readScenarioFile(file.name, bytes.length, json, invalidUtf8At);
        if (result.ok)
          postInParts(id, result.scenario, (scenario) => ({ id, type: 'scenario', result: { ...result, scenario } }));
        else post({ id, type: 'scenario', result });
        return;
      }
    }
    const { scenario, report } = importTrace(bytes, {
      toolMap,
      ...(agent ? { agent } : {}),
      ...(format ? { format } : {}),
      name: file.name.replace(/\.(jsonl?|json)$/, ''),
      progress: (s) => progress(0.5 + s / 2),
    });
    postInParts(id, scenario, (rest) => ({ id, type: 'imported', scenario: rest, report }));
  } catch (error) {
    post({
      id,
      type: 'failed',
      message: failureMessage(file.name, error),
      ...(error instanceof UnknownFormatError ? { unknownFormat: true } : {}),
    });
  }
};

/** What the import dialog says went wrong, in the page's words. */
function failureMessage(name: string, error: unknown): string {
  if (error instanceof TooLargeError)
    return `${name} is over ${megabytes(MAX_TRACE_BYTES)}; traces up to ${megabytes(MAX_TRACE_BYTES)} can be imported. Import part of the session instead`;
  if (error instanceof EncodingError) return encodingAdvice(name, error.found, 'page');
  if (error instanceof ImportError) return `${name}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
