// What a command printed: console.log and console.error lines, captured for the test that calls
// this (restore them with vi.restoreAllMocks in afterEach).
import { vi } from 'vitest';

export function captureConsole(): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
    out.push(a.join(' '));
  });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
    err.push(a.join(' '));
  });
  return { out, err };
}
