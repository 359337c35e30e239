// checklist: items with state, written through todo_add / todo_done / todo_note. Ids count up and
// are never reused, also across stage layouts that make the region another kind and back; an
// unknown id is an error the model can read. Rendered as one block with open items first; never
// evicted and never shed.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import { PLAIN, type KindDefinition } from './kind.ts';
import type { Checklist, Entry, RegionContext, TodoOutcome, TodoState, WriteOutcome } from './types.ts';
import { itemAt } from '../item-at.ts';

export const checklistKind: KindDefinition<'checklist'> = {
  kind: 'checklist',
  doc: 'A task list whose entries carry state, written through todo_add / todo_done / todo_note; never evicted, rendered open-items-first.',
  tier: null,
  section: 'by-name',
  abilities: { ...PLAIN, checklist: true },
  keys: {},
};

export class ChecklistRegion extends BaseRegion implements Checklist {
  readonly definition = checklistKind;
  private issued = 0;

  get lastId(): number {
    return this.issued;
  }

  continueIds(lastId: number): void {
    this.issued = Math.max(this.issued, lastId);
  }

  override get checklist(): Checklist {
    return this;
  }

  get openItems(): TodoState[] {
    return this.entries.filter((e) => e.todo!.state === 'open').map((e) => e.todo!);
  }

  /**
   * Free text does not belong here: the state would drift from what the model believes it wrote.
   * The one entry taken is a todo item made by a checklist (it carries its state), moving back in
   * when a stage layout makes this name a checklist again: it keeps its id, state and notes.
   */
  override write(entry: Entry, ctx: RegionContext): WriteOutcome {
    const todo = entry.todo;
    if (!todo || this.find(todo.id) >= 0) {
      return {
        ok: false,
        message: `${this.name} is a checklist: write to it with todo_add, todo_done and todo_note`,
        changes: [],
      };
    }
    const refused = this.refuse(entry, 0);
    if (refused) return refused;
    this.issued = Math.max(this.issued, todo.id);
    this.insertAt(this.entries.length, this.entryFor(todo, entry.seq, ctx));
    this.reorder();
    return { ok: true, changes: [] };
  }

  override put(entry: Entry, ctx: RegionContext): WriteOutcome {
    return this.write(entry, ctx);
  }

  add(item: string, ctx: RegionContext): TodoOutcome {
    const todo: TodoState = { id: this.issued + 1, item, state: 'open', notes: [] };
    const entry = this.entryFor(todo, ctx.nextSeq(), ctx);
    const refused = this.refuse(entry, 0);
    if (refused && !refused.ok) return { ok: false, message: refused.message, changes: refused.changes };
    this.issued = todo.id;
    this.insertAt(this.entries.length, entry);
    this.reorder();
    return { ok: true, id: todo.id, message: `added #${todo.id} to ${this.name}`, changes: [] };
  }

  done(id: number, ctx: RegionContext): TodoOutcome {
    const at = this.find(id);
    if (at < 0) return this.unknown(id);
    const todo = itemAt(this.entries, at).todo!;
    if (todo.state === 'done') return { ok: true, id, message: `#${id} was already done`, changes: [] };
    return this.update(at, { ...todo, state: 'done' }, `#${id} done: ${todo.item}`, ctx);
  }

  note(id: number, note: string, ctx: RegionContext): TodoOutcome {
    const at = this.find(id);
    if (at < 0) return this.unknown(id);
    const todo = itemAt(this.entries, at).todo!;
    return this.update(at, { ...todo, notes: [...todo.notes, note] }, `noted on #${id} (still ${todo.state})`, ctx);
  }

  /** Open items as the gate's nudge names them. */
  describeOpen(): string {
    return this.openItems.map((t) => `#${t.id} ${t.item}`).join('; ');
  }

  protected enforce(): Change[] {
    return [];
  }

  override shed(): Change[] {
    return [];
  }

  override compactAll(): Change[] {
    return [];
  }

  override remove() {
    return {
      ok: false as const,
      message: `${this.name} is a checklist: close items with todo_done rather than deleting them`,
    };
  }

  private update(at: number, todo: TodoState, message: string, ctx: RegionContext): TodoOutcome {
    const old = itemAt(this.entries, at);
    const entry = this.entryFor(todo, old.seq, ctx);
    const refused = this.refuse(entry, old.tokens, 0);
    if (refused && !refused.ok) return { ok: false, message: refused.message, changes: refused.changes };
    this.replaceAt(at, entry);
    this.reorder();
    return { ok: true, id: todo.id, message, changes: [] };
  }

  private unknown(id: number): TodoOutcome {
    const open = this.describeOpen();
    const known = this.issued === 0 ? 'it has no items yet' : `ids run from 1 to ${this.issued}`;
    return { ok: false, message: `${this.name} has no item #${id} (${known}; open: ${open || 'none'})`, changes: [] };
  }

  private find(id: number): number {
    return this.entries.findIndex((e) => e.todo!.id === id);
  }

  private entryFor(todo: TodoState, seq: number, ctx: RegionContext): Entry {
    const mark = todo.state === 'done' ? 'x' : ' ';
    const content = [`- [${mark}] #${todo.id} ${todo.item}`, ...todo.notes.map((n) => `  note: ${n}`)].join('\n');
    return { seq, content, tokens: ctx.count(content), kind: 'todo', todo };
  }

  /** Open items first, each group by id: the order the block renders and context_list shows. */
  private reorder(): void {
    this.reordered();
    this.entries.sort((a, b) =>
      a.todo!.state === b.todo!.state ? a.todo!.id - b.todo!.id : a.todo!.state === 'open' ? -1 : 1,
    );
  }
}
