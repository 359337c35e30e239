// Appends events in the shapes DESIGN.md gives, keeping the bookkeeping a generator should not
// repeat: tool-call ids (each call answered by exactly one result) and checklist ids.
import type { TrafficEvent } from '../engine/page.ts';
import { itemAt } from '../engine/page.ts';

export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
  /** What the tool returns: filler of a token count, or literal text. */
  result: { size_tokens: number } | { content: string };
  isError?: boolean;
}

export class TrafficBuilder {
  readonly events: TrafficEvent[] = [];
  private callCount = 0;
  /** Next checklist id per region: ids start at 1 and are never reused (the spec's rule). */
  private readonly nextTodoId = new Map<string, number>();

  get length(): number {
    return this.events.length;
  }

  user(content: string): void {
    this.events.push({ type: 'user', content });
  }

  assistant(content: string): void {
    this.events.push({ type: 'assistant', content });
  }

  /** One inference that calls tools, followed by one result per call, in call order. */
  toolTurn(content: string, calls: readonly PlannedCall[]): void {
    const ids = calls.map(() => `call_${++this.callCount}`);
    this.events.push({
      type: 'assistant',
      content,
      tool_calls: calls.map((call, i) => ({ id: itemAt(ids, i), name: call.name, arguments: call.arguments })),
    });
    calls.forEach((call, i) => {
      this.events.push({
        type: 'tool_result',
        tool_call_id: itemAt(ids, i),
        tool_name: call.name,
        ...call.result,
        ...(call.isError ? { is_error: true } : {}),
      });
    });
  }

  /** Returns the id the runtime gives the new item. */
  todoAdd(region: string, item: string): number {
    const id = this.nextTodoId.get(region) ?? 1;
    this.nextTodoId.set(region, id + 1);
    this.events.push({ type: 'todo_add', region, item });
    return id;
  }

  todoDone(region: string, id: number): void {
    this.events.push({ type: 'todo_done', region, id });
  }

  todoNote(region: string, id: number, note: string): void {
    this.events.push({ type: 'todo_note', region, id, note });
  }

  append(region: string, content: string, key?: string): void {
    this.events.push({ type: 'context_append', region, ...(key === undefined ? {} : { key }), content });
  }

  delete(region: string, target: { key: string } | { index: number } | { oldest: number }): void {
    this.events.push({ type: 'context_delete', region, ...target });
  }

  transition(to: string): void {
    this.events.push({ type: 'transition', to });
  }
}
