// WorkerClient against a scripted fake worker: superseding, restarts, time limits and crashes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, WorkerClient } from '../../src/worker/client.ts';
import type { WorkerRequest } from '../../src/worker/protocol.ts';

class FakeWorker {
  static all: FakeWorker[] = [];
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  received: WorkerRequest[] = [];
  terminated = false;
  constructor() {
    FakeWorker.all.push(this);
  }
  postMessage(message: WorkerRequest) {
    this.received.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  reply(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
  crash(message: string) {
    this.onerror?.({ message, preventDefault() {} } as ErrorEvent);
  }
}

/** The n-th worker the client started (from 0); a test that expects one fails here if it was not. */
function started(n: number): FakeWorker {
  const worker = FakeWorker.all[n];
  if (!worker) throw new Error(`the client started ${FakeWorker.all.length} workers, not ${n + 1}`);
  return worker;
}

const validateResult = { diagnostics: [], budgets: [], model: null };
const payload = { agent: { 'agent.leviath': '' }, workdir: {}, commands: {}, inputs: {}, model: { id: 'gpt-4o' } };

function client(restarts: string[] = []) {
  return new WorkerClient({
    spawn: () => new FakeWorker() as unknown as Worker,
    timeLimitMs: 5_000,
    cancelGraceMs: 300,
    onRestart: (m) => restarts.push(m),
  });
}

describe('WorkerClient', () => {
  beforeEach(() => {
    FakeWorker.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('starts its worker on the first request and resolves with the parsed result', async () => {
    const c = client();
    expect(FakeWorker.all).toHaveLength(0);
    const result = c.request('validate', payload);
    const worker = started(0);
    expect(worker.received[0]).toMatchObject({ id: 1, type: 'validate' });
    worker.reply({ type: 'validate', id: 1, result: validateResult });
    await expect(result).resolves.toEqual(validateResult);
  });

  it('a newer request of the same kind cancels the older one; a stuck worker is restarted and the new request re-sent', async () => {
    const restarts: string[] = [];
    const c = client(restarts);
    const first = c.request('validate', payload);
    const second = c.request('validate', payload);
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    const worker = started(0);
    expect(worker.received.map((m) => m.type)).toEqual(['validate', 'cancel', 'validate']);
    vi.advanceTimersByTime(301);
    expect(worker.terminated).toBe(true);
    const fresh = started(1);
    expect(fresh.received).toEqual([expect.objectContaining({ id: 2, type: 'validate' })]);
    expect(restarts).toEqual([]); // superseding is routine, not something to tell the user
    fresh.reply({ type: 'validate', id: 2, result: validateResult });
    await expect(second).resolves.toEqual(validateResult);
  });

  it('a worker that lets go of stale work in time is kept', async () => {
    const c = client();
    void c.request('validate', payload).catch(() => undefined);
    const second = c.request('validate', payload);
    const worker = started(0);
    worker.reply({ type: 'failed', id: 1, message: 'cancelled', cancelled: true });
    worker.reply({ type: 'validate', id: 2, result: validateResult });
    vi.advanceTimersByTime(1000);
    expect(worker.terminated).toBe(false);
    await expect(second).resolves.toEqual(validateResult);
  });

  it('a superseded scrub queued behind a long replay never restarts the worker; its late answer is dropped', async () => {
    const c = client();
    const replay = c.request('replay', { replayId: 1, scenario: {} });
    const first = c.request('inspect', { replayId: 1, step: 3 }, { restartIfStuck: false });
    const second = c.request('inspect', { replayId: 1, step: 4 }, { restartIfStuck: false });
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    vi.advanceTimersByTime(2_000);
    const worker = started(0);
    expect(worker.terminated).toBe(false);
    expect(FakeWorker.all).toHaveLength(1);
    expect(worker.received.map((m) => m.type)).toEqual(['replay', 'inspect', 'cancel', 'inspect']);
    const timeline = { diagnostics: [], view: null, ms: 1 };
    worker.reply({ type: 'replay', id: 1, result: timeline });
    const detailAt = (index: number) => ({ index, regions: [], changes: [], request: { system: [], messages: [] } });
    worker.reply({ type: 'inspect', id: 2, result: { detail: detailAt(3) } });
    worker.reply({ type: 'inspect', id: 3, result: { detail: detailAt(4) } });
    await expect(replay).resolves.toEqual(timeline);
    await expect(second).resolves.toEqual({ detail: detailAt(4) });
  });

  it("hands a replay's interim validation to onValidated, and drops it once the replay is superseded", async () => {
    const c = client();
    const seen: unknown[] = [];
    const first = c.request('replay', { replayId: 1, scenario: {} }, { onValidated: (v) => seen.push(v) });
    const worker = started(0);
    worker.reply({ type: 'validated', id: 1, result: validateResult });
    expect(seen).toEqual([validateResult]);
    const second = c.request('replay', { replayId: 2, scenario: {} }, { onValidated: (v) => seen.push(v) });
    await expect(first).rejects.toBeInstanceOf(CancelledError);
    worker.reply({ type: 'validated', id: 1, result: { ...validateResult, modelError: 'stale' } });
    worker.reply({ type: 'failed', id: 1, message: 'cancelled', cancelled: true });
    worker.reply({ type: 'validated', id: 2, result: validateResult });
    worker.reply({ type: 'replay', id: 2, result: { diagnostics: [], view: null, ms: 1 } });
    await expect(second).resolves.toEqual({ diagnostics: [], view: null, ms: 1 });
    expect(seen).toEqual([validateResult, validateResult]);
  });

  it('requests with different keys do not cancel each other', async () => {
    const c = client();
    const a = c.request('rhaiCheck', { file: 'a.rhai', source: '' }, { key: 'rhai:a' });
    const b = c.request('rhaiCheck', { file: 'b.rhai', source: '' }, { key: 'rhai:b' });
    const worker = started(0);
    worker.reply({ type: 'rhaiCheck', id: 2, result: { diagnostics: [] } });
    worker.reply({ type: 'rhaiCheck', id: 1, result: { diagnostics: [] } });
    await expect(a).resolves.toEqual({ diagnostics: [] });
    await expect(b).resolves.toEqual({ diagnostics: [] });
  });

  it('a request past the time limit fails, the worker restarts, and the user is told', async () => {
    const restarts: string[] = [];
    const c = client(restarts);
    const slow = c.request('replay', { replayId: 1, scenario: {} });
    vi.advanceTimersByTime(5_300);
    await expect(slow).rejects.toThrow('took longer than 5 s');
    expect(started(0).terminated).toBe(true);
    expect(restarts[0]).toMatch(/more than 5 s on one replay and was restarted/);
  });

  it("a request with a time limit of its own is held to it, not the client's; progress carries its phase", async () => {
    const restarts: string[] = [];
    const c = client(restarts);
    const phases: unknown[] = [];
    const search = c.request(
      'advise',
      { scenario: {} },
      { timeLimitMs: 60_000, onProgress: (done, total, phase) => phases.push([done, total, phase]) },
    );
    const worker = started(0);
    worker.reply({ type: 'progress', id: 1, done: 3, total: 240, phase: 'search', front: 2 });
    vi.advanceTimersByTime(30_000);
    expect(worker.terminated).toBe(false);
    worker.reply({ type: 'progress', id: 1, done: 5, total: 40, phase: 'front', front: 4 });
    expect(phases).toEqual([
      [3, 240, { phase: 'search', front: 2 }],
      [5, 40, { phase: 'front', front: 4 }],
    ]);
    vi.advanceTimersByTime(30_300);
    await expect(search).rejects.toThrow('took longer than 60 s');
    expect(restarts[0]).toMatch(/more than 60 s on one advise/);
  });

  it('a time limit says where the request stood: its last progress and the last script the worker started', async () => {
    const restarts: string[] = [];
    const c = client(restarts);
    const slow = c.request('replay', { replayId: 1, scenario: {} });
    const worker = started(0);
    worker.reply({ type: 'progress', id: 1, done: 1200, total: 5000 });
    worker.reply({ type: 'script', id: 1, file: 'context_hooks/notes.rhai', hooks: ['render'] });
    worker.reply({ type: 'script', id: 1, file: 'context_hooks/hog.rhai', hooks: ['render'] });
    worker.reply({ type: 'script', id: 1, file: 'context_hooks/hog.rhai', hooks: ['render', 'on_write'] });
    vi.advanceTimersByTime(5_300);
    const where =
      ' after event 1,200 of 5,000; the last script it went into was context_hooks/hog.rhai (render or on_write): look there for a loop or a slow string operation.';
    await expect(slow).rejects.toThrow(`The replay took longer than 5 s and was stopped${where}`);
    expect(restarts).toEqual([
      `The engine worker spent more than 5 s on one replay and was restarted${where} Your work is unchanged.`,
    ]);
  });

  it('a rhai seed that holds a validation is named as a seed; a request that ran no script says only where it was', async () => {
    const c = client();
    const validation = c.request('validate', payload);
    started(0).reply({ type: 'script', id: 1, file: 'seeds/facts.rhai', hooks: ['seed'] });
    vi.advanceTimersByTime(5_300);
    await expect(validation).rejects.toThrow(
      'The validate took longer than 5 s and was stopped; the last script it went into was seeds/facts.rhai (a rhai seed): look there for a loop or a slow string operation.',
    );
    const replay = c.request('replay', { replayId: 2, scenario: {} });
    vi.advanceTimersByTime(5_300);
    await expect(replay).rejects.toThrow(/^The replay took longer than 5 s and was stopped\.$/);
  });

  it("a cancelled request's script messages do not end it early, and are not taken for a newer request's", async () => {
    const c = client();
    void c.request('replay', { replayId: 1, scenario: {} }).catch(() => undefined);
    const second = c.request('replay', { replayId: 2, scenario: {} });
    const worker = started(0);
    worker.reply({ type: 'script', id: 1, file: 'old.rhai', hooks: ['render'] });
    worker.reply({ type: 'failed', id: 1, message: 'cancelled', cancelled: true });
    vi.advanceTimersByTime(5_300);
    await expect(second).rejects.toThrow(/stopped\.$/);
  });

  it('a crash fails what was pending, restarts, and the next request goes to the new worker', async () => {
    const restarts: string[] = [];
    const c = client(restarts);
    const pending = c.request('replay', { replayId: 1, scenario: {} });
    started(0).crash('out of memory');
    await expect(pending).rejects.toThrow('crashed (out of memory)');
    expect(restarts).toHaveLength(1);
    const next = c.request('validate', payload);
    const fresh = FakeWorker.all.at(-1)!;
    expect(fresh).not.toBe(started(0));
    fresh.reply({ type: 'validate', id: 2, result: validateResult });
    await expect(next).resolves.toEqual(validateResult);
  });

  it('a malformed answer is refused at the boundary', async () => {
    const restarts: string[] = [];
    const c = client(restarts);
    const pending = c.request('validate', payload);
    started(0).reply({ type: 'validate', id: 1, result: { diagnostics: 'nope' } });
    await expect(pending).rejects.toThrow('malformed message');
    expect(restarts[0]).toMatch(/result\.diagnostics/);
  });
});
