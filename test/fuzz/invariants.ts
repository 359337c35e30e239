// Checks shared by the fuzz tests: what every assembled request must satisfy.
import { expect } from 'vitest';
import type { AssembledRequest } from '../../src/engine/timeline.ts';

/** Tokens add up, and tool calls and results are paired (a provider refuses anything else). */
export function checkRequest(request: AssembledRequest, where: string): void {
  const blockTokens = [...request.system, ...request.messages].reduce((sum, b) => sum + b.tokens, 0);
  expect(request.tokens, `${where}: request tokens`).toBe(blockTokens);
  // Every call has its result after it, and every result answers one earlier call (ids may repeat
  // in random traffic, so calls and results are matched by count).
  const open = new Map<string, number>();
  for (const m of request.messages) {
    for (const c of m.tool_calls ?? []) open.set(c.id, (open.get(c.id) ?? 0) + 1);
    if (m.role === 'tool') {
      const waiting = open.get(m.tool_call_id!) ?? 0;
      expect(waiting, `${where}: result ${m.tool_call_id} answers no earlier call`).toBeGreaterThan(0);
      open.set(m.tool_call_id!, waiting - 1);
    }
  }
  expect(
    [...open].filter(([, n]) => n > 0).map(([id]) => id),
    `${where}: calls without results`,
  ).toEqual([]);
}
