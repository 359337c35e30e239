/// <reference lib="webworker" />
// The worker side of the protocol: parse each request, run its handler, post the answer. A worker
// serves on its own global scope; tests serve the same handlers on one end of a MessageChannel.
import { z } from 'zod';
import { WorkerRequestSchema, describeIssues, type WorkerRequest, type WorkerResponse } from './protocol.ts';
import { watchScripts } from '../engine/index.ts';
import { scriptLog, type ScriptLog } from './scripts.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Where a worker's requests arrive and its answers go: the worker's global scope, or a MessagePort. */
export interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

type Request<T extends WorkerRequest['type']> = Extract<WorkerRequest, { type: T }>;
export interface Context {
  /** Posts an answer; the buffers in `transfer` move to the page instead of being copied. */
  post: (message: WorkerResponse, transfer?: Transferable[]) => void;
  /** Aborted when the page cancels this request (seen between events of a long computation). */
  signal: AbortSignal;
  /** The scripts this request has run, and how long each took; the page hears each one start (absent in tests that call handlers directly). */
  scripts?: ScriptLog;
}
export type Handlers = {
  [T in Exclude<WorkerRequest['type'], 'cancel'>]?: (request: Request<T>, context: Context) => void | Promise<void>;
};

/** Answers the requests arriving at `scope` (by default the worker's own) with `handlers`. */
export function serve(handlers: Handlers, scope: WorkerScope = self): void {
  const post = (message: WorkerResponse, transfer: Transferable[] = []): void => scope.postMessage(message, transfer);
  const controllers = new Map<number, AbortController>();
  // Requests wait here, not in the browser's message queue, so a cancel that arrives while an
  // earlier request runs can still stop a later one from ever starting.
  const queue: Exclude<WorkerRequest, { type: 'cancel' }>[] = [];
  let draining = false;

  function drain(): void {
    const next = queue.shift();
    if (!next) {
      draining = false;
      return;
    }
    handle(next)
      .catch((error: unknown) => {
        post({
          type: 'failed',
          id: next.id,
          message: error instanceof Error ? error.message : String(error),
          cancelled: false,
        });
      })
      // A macrotask between requests lets cancels that arrived meanwhile be read first.
      .finally(() => setTimeout(drain, 0));
  }

  async function handle(req: Exclude<WorkerRequest, { type: 'cancel' }>): Promise<void> {
    const handler = handlers[req.type] as ((r: WorkerRequest, c: Context) => void | Promise<void>) | undefined;
    if (!handler) {
      post({ type: 'failed', id: req.id, message: `this worker does not handle ${req.type}`, cancelled: false });
      return;
    }
    const controller = new AbortController();
    controllers.set(req.id, controller);
    const scripts = scriptLog((running) => post({ type: 'script', id: req.id, ...running }));
    watchScripts(scripts);
    try {
      await handler(req, { post, signal: controller.signal, scripts });
    } finally {
      watchScripts(undefined);
      controllers.delete(req.id);
    }
  }

  scope.onmessage = (event: MessageEvent) => {
    const parsed = WorkerRequestSchema.safeParse(event.data);
    if (!parsed.success) {
      const id = z.object({ id: z.number() }).safeParse(event.data);
      post({
        type: 'failed',
        id: id.success ? id.data.id : 0,
        message: `bad request: ${describeIssues(parsed.error)}`,
        cancelled: false,
      });
      return;
    }
    const req = parsed.data;
    if (req.type === 'cancel') {
      controllers.get(req.id)?.abort();
      const waiting = queue.findIndex((q) => q.id === req.id);
      if (waiting >= 0) {
        queue.splice(waiting, 1);
        post({ type: 'failed', id: req.id, message: 'cancelled', cancelled: true });
      }
      return;
    }
    queue.push(req);
    if (!draining) {
      draining = true;
      setTimeout(drain, 0);
    }
  };
  post({ type: 'ready' });
}
