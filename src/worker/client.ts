// Promises over a worker (the engine worker or the edit worker: one client each). A newer request of
// the same type supersedes the stale one (never queued); a worker that is stuck on stale work, runs
// past its time limit, or dies is terminated and restarted, and the still-wanted requests are sent
// again.
import {
  WorkerResponseSchema,
  describeIssues,
  type RequestType,
  type ResultOf,
  type ValidateResult,
  type WorkerRequest,
  type WorkerResponse,
} from './protocol.ts';
import { fmt } from '../engine/page.ts';
import { describeScript, type RunningScript } from './scripts.ts';

/** Where a request with phases stands (the advisor: `search`, then `front`), and its front so far. */
export interface ProgressPhase {
  phase: 'search' | 'front';
  front: number;
}

export class CancelledError extends Error {
  constructor() {
    super('superseded by a newer request');
    this.name = 'CancelledError';
  }
}

export interface ClientOptions {
  /** Creates the worker (injected so tests and lanes can differ). */
  spawn: () => Worker;
  /** A request running longer than this restarts the worker. */
  timeLimitMs: number;
  /** How long a cancelled request may keep the worker busy before the worker is restarted. */
  cancelGraceMs: number;
  /** Shown to the user when the worker had to be restarted for a reason they should know. */
  onRestart: (message: string) => void;
}

type Payload<T extends RequestType> = Omit<Extract<WorkerRequest, { type: T }>, 'id' | 'type'>;

interface Pending {
  id: number;
  type: RequestType;
  key: string;
  message: WorkerRequest;
  startedAt: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (done: number, total: number, phase?: ProgressPhase) => void;
  onValidated?: (result: ValidateResult) => void;
  timeLimitMs: number;
  /** Superseded while the worker is busy with it: restart the worker (true), or let it finish unheard. */
  restartIfStuck: boolean;
  /** The last progress and the last script the worker said it started, for a time limit's message. */
  progress?: { done: number; total: number };
  script?: RunningScript;
}

/**
 * Where a request stood when its time limit stopped it, as the end of a sentence: the last progress
 * the worker sent, and the last script it said it started (a script call holds the worker until it
 * returns, so a runaway hook or seed is that one).
 */
function whereStopped(p: Pending): string {
  const at =
    p.progress && p.progress.total > 0 ? ` after event ${fmt(p.progress.done)} of ${fmt(p.progress.total)}` : '';
  const script = p.script
    ? `; the last script it went into was ${describeScript(p.script)}: look there for a loop or a slow string operation`
    : '';
  return `${at}${script}.`;
}

export class WorkerClient {
  /** Started on the first request, so lanes that are not used yet cost nothing. */
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Requests cancelled while the worker may still be busy with them. */
  private readonly stale = new Set<number>();
  /** Cancelled requests whose answers are dropped, but which never restart the worker. */
  private readonly unheard = new Set<number>();
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private limitTimer: ReturnType<typeof setInterval> | undefined;
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
  }

  private get live(): Worker {
    this.worker ??= this.start();
    return this.worker;
  }

  /**
   * Sends a request; an earlier pending request with the same `key` (default: the type) is
   * cancelled and its promise rejects with CancelledError. A cheap request (`restartIfStuck:
   * false`) that is cancelled never restarts the worker, so it cannot kill a long request queued
   * before it.
   */
  request<T extends RequestType>(
    type: T,
    payload: Payload<T>,
    options: {
      onProgress?: (done: number, total: number, phase?: ProgressPhase) => void;
      onValidated?: (result: ValidateResult) => void;
      key?: string;
      restartIfStuck?: boolean;
      /** This request's own time limit, when it is not the client's (the advisor's search runs longer than a replay). */
      timeLimitMs?: number;
    } = {},
  ): Promise<ResultOf[T]> {
    const key = options.key ?? type;
    this.supersede(key);
    const id = this.nextId++;
    const message = { ...payload, id, type } as unknown as WorkerRequest;
    return new Promise<ResultOf[T]>((resolve, reject) => {
      this.pending.set(id, {
        id,
        type,
        key,
        message,
        startedAt: performance.now(),
        onProgress: options.onProgress,
        onValidated: options.onValidated,
        restartIfStuck: options.restartIfStuck ?? true,
        timeLimitMs: options.timeLimitMs ?? this.options.timeLimitMs,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.live.postMessage(message);
      this.watchTimeLimit();
    });
  }

  /** Cancels the pending request with this key (default: its type), as a newer one would. */
  cancel(key: string): void {
    this.supersede(key);
  }

  dispose(): void {
    clearTimeout(this.graceTimer);
    clearInterval(this.limitTimer);
    this.worker?.terminate();
    for (const p of this.pending.values()) p.reject(new CancelledError());
    this.pending.clear();
  }

  private start(): Worker {
    const worker = this.options.spawn();
    worker.onmessage = (e: MessageEvent) => this.receive(e.data);
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.crash(`The engine worker crashed (${e.message || 'unknown error'}) and was restarted.`);
    };
    worker.onmessageerror = () => this.crash('The engine worker sent an unreadable message and was restarted.');
    return worker;
  }

  private supersede(key: string): void {
    for (const p of [...this.pending.values()]) {
      if (p.key !== key) continue;
      this.pending.delete(p.id);
      (p.restartIfStuck ? this.stale : this.unheard).add(p.id);
      p.reject(new CancelledError());
      this.worker?.postMessage({ type: 'cancel', id: p.id } satisfies WorkerRequest);
    }
    if (this.stale.size > 0 && this.graceTimer === undefined) {
      // If the worker has not let go of the stale work by now, it is mid-computation: restart it.
      this.graceTimer = setTimeout(() => {
        this.graceTimer = undefined;
        if (this.stale.size > 0) this.restart();
      }, this.options.cancelGraceMs);
    }
  }

  private receive(data: unknown): void {
    const parsed = WorkerResponseSchema.safeParse(data);
    if (!parsed.success) {
      this.crash(`The engine worker sent a malformed message (${describeIssues(parsed.error)}) and was restarted.`);
      return;
    }
    const msg: WorkerResponse = parsed.data;
    if (msg.type === 'ready') return;
    for (const cancelled of [this.stale, this.unheard]) {
      if (!cancelled.has(msg.id)) continue;
      if (msg.type !== 'progress' && msg.type !== 'validated' && msg.type !== 'script') cancelled.delete(msg.id);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'script') {
      p.script = { file: msg.file, hooks: msg.hooks };
      return;
    }
    if (msg.type === 'progress') {
      p.progress = { done: msg.done, total: msg.total };
      p.onProgress?.(
        msg.done,
        msg.total,
        msg.phase === undefined ? undefined : { phase: msg.phase, front: msg.front ?? 0 },
      );
      return;
    }
    if (msg.type === 'validated') {
      p.onValidated?.(msg.result);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.type === 'failed') p.reject(msg.cancelled ? new CancelledError() : new Error(msg.message));
    else p.resolve(msg.result);
  }

  private watchTimeLimit(): void {
    if (this.limitTimer !== undefined) return;
    this.limitTimer = setInterval(() => {
      const now = performance.now();
      const late = [...this.pending.values()].find((p) => now - p.startedAt > p.timeLimitMs);
      if (late) {
        this.pending.delete(late.id);
        const seconds = Math.round(late.timeLimitMs / 1000);
        const where = whereStopped(late);
        late.reject(new Error(`The ${late.type} took longer than ${seconds} s and was stopped${where}`));
        this.options.onRestart(
          `The engine worker spent more than ${seconds} s on one ${late.type} and was restarted${where} Your work is unchanged.`,
        );
        this.restart();
      }
      if (this.pending.size === 0) {
        clearInterval(this.limitTimer);
        this.limitTimer = undefined;
      }
    }, 250);
  }

  private crash(message: string): void {
    this.options.onRestart(message);
    // The request that crashed it is unknown; fail them all rather than crash again on resend.
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
    this.restart();
  }

  /** Terminates the worker and sends the still-wanted requests to a fresh one. */
  private restart(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.stale.clear();
    this.unheard.clear();
    this.worker?.terminate();
    this.worker = null;
    for (const p of this.pending.values()) {
      p.startedAt = performance.now();
      this.live.postMessage(p.message);
    }
  }
}
