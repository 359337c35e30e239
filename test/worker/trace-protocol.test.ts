// The trace-import worker's messages are checked at the boundary, both ways.
import { describe, expect, it } from 'vitest';
import { TraceImportRequestSchema, TraceImportResponseSchema } from '../../src/worker/trace-protocol.ts';

describe('trace-import protocol', () => {
  const file = new File(['{}'], 'run.traj');

  it('a request carries the file itself, the tool map, and optionally the blueprint and the chosen format', () => {
    expect(TraceImportRequestSchema.safeParse({ id: 1, file, toolMap: { Read: 'read_file' } }).success).toBe(true);
    expect(
      TraceImportRequestSchema.safeParse({
        id: 2,
        file,
        toolMap: {},
        format: 'swe-agent',
        agent: { 'agent.leviath': '' },
      }).success,
    ).toBe(true);
    // Not a file (the page once sent its text), or a format the importer does not have.
    expect(TraceImportRequestSchema.safeParse({ id: 3, file: 'text', toolMap: {} }).success).toBe(false);
    expect(TraceImportRequestSchema.safeParse({ id: 4, file, toolMap: {}, format: 'gemini' }).success).toBe(false);
  });

  it('answers are checked at their envelope; a failure says whether the format was unknown', () => {
    expect(TraceImportResponseSchema.safeParse({ id: 1, type: 'progress', share: 0.5 }).success).toBe(true);
    expect(TraceImportResponseSchema.safeParse({ id: 1, type: 'progress', share: 2 }).success).toBe(false);
    expect(
      TraceImportResponseSchema.safeParse({ id: 1, type: 'traffic', events: [{ type: 'user', content: 'hi' }] })
        .success,
    ).toBe(true);
    expect(TraceImportResponseSchema.safeParse({ id: 1, type: 'traffic', events: [{ content: 'hi' }] }).success).toBe(
      false,
    );
    expect(
      TraceImportResponseSchema.safeParse({ id: 1, type: 'failed', message: 'x', unknownFormat: true }).success,
    ).toBe(true);
    expect(
      TraceImportResponseSchema.safeParse({ id: 1, type: 'imported', scenario: { traffic: [] }, report: {} }).success,
    ).toBe(false);
  });
});
