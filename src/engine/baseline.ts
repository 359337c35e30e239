// The flat-list baseline: the same traffic through one message list with oldest-first eviction
// at the model window, as an agent without regions would hold it. The system prompt stays; the
// task is the first message, so it is the first thing to fall out.
import { itemAt } from './item-at.ts';

export class FlatListBaseline {
  private readonly sizes: number[] = [];
  private head = 0;
  private messageTokens = 0;
  private systemTokens = 0;
  /** Position of the task message in `sizes`, or -1 when the run has no task. */
  private taskAt: number;

  constructor(
    private readonly window: number,
    taskTokens: number | undefined,
  ) {
    this.taskAt = taskTokens === undefined ? -1 : 0;
    if (taskTokens !== undefined) this.add(taskTokens);
  }

  /** The stage prompt: replaced on each stage change, never evicted. */
  setSystem(tokens: number): void {
    this.systemTokens = tokens;
    this.evict();
  }

  add(tokens: number): void {
    this.sizes.push(tokens);
    this.messageTokens += tokens;
    this.evict();
  }

  /** A copy that goes on independently, holding only the messages still in the window. */
  clone(): FlatListBaseline {
    const copy = new FlatListBaseline(this.window, undefined);
    copy.sizes.push(...this.sizes.slice(this.head));
    copy.messageTokens = this.messageTokens;
    copy.systemTokens = this.systemTokens;
    copy.taskAt = this.taskAt - this.head;
    return copy;
  }

  get tokens(): number {
    return this.systemTokens + this.messageTokens;
  }

  get taskInWindow(): boolean {
    return this.taskAt >= this.head;
  }

  private evict(): void {
    while (this.head < this.sizes.length && this.systemTokens + this.messageTokens > this.window) {
      this.messageTokens -= itemAt(this.sizes, this.head++);
    }
    // Keep the array from growing without bound on long runs.
    if (this.head > 4096 && this.head * 2 > this.sizes.length) {
      this.sizes.splice(0, this.head);
      this.taskAt -= this.head;
      this.head = 0;
    }
  }
}
