// The address bar holds the open scenario's link: rewritten a moment after the last edit (no
// history entry per keystroke), pushed as a history entry of its own when a scenario is opened (so
// Back returns to the previous one), and each history entry's state names its library entry. The
// view (step, chart, zoom, region, entry: share/view.ts) follows the scenario's part, rewritten in
// place as it changes.
import { type Scenario, fmt } from '../engine/page.ts';
import { encodeScenario, MAX_ADDRESS_CHARS } from '../share/index.ts';
import { scenarioPart, viewParams, type ViewState } from '../share/view.ts';
import type { PageHost } from './host.ts';
import { jsonLongerThan } from './jsonSize.ts';

/** Past this much JSON no link is made for the address bar (its link would be far past MAX_ADDRESS_CHARS anyway). */
export const MAX_ADDRESS_SOURCE_CHARS = 2_000_000;

/** What a history entry's state holds: the library entry its address stands for. */
export interface HistoryState {
  entryId?: string | null;
}

export class AddressBar {
  /** The scenario's part of the fragment this tab last put in the address bar. */
  private fragment = '';
  /** The whole fragment this tab last put there (the scenario's part and the view's). */
  private written = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private viewTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The write waiting in `timer`, if any: an edit not in the address bar yet, or an open's new
   * history entry, which later edits' rewrites must not turn into a replace.
   */
  private pending: 'push' | 'replace' | null = null;

  constructor(
    private readonly host: PageHost,
    private readonly open: () => { scenario: Scenario; entryId: string | null },
    private readonly view: () => ViewState = () => ({}),
  ) {}

  /** Whether a write is waiting (an open's entry not pushed yet, or an edit not in the address yet). */
  get waiting(): boolean {
    return this.pending !== null;
  }

  /** The library entry this tab's history entry names, if it names one (a reload of this tab). */
  get entryId(): string | null {
    return (this.host.history.state as HistoryState | null)?.entryId ?? null;
  }

  /** Whether the history entry is one this page wrote (a reload of this tab, not a link pasted into a fresh one). */
  get ours(): boolean {
    return this.host.history.state !== null;
  }

  /**
   * The scenario's fragment for the address bar, or none (and why) when it cannot be a link or the
   * link would be longer than an address bar takes: the tab then finds its entry through
   * history.state on reload, and Ctrl+S says to export instead of copying a link.
   */
  linkOf(scenario: Scenario): { fragment: string; problem?: string } {
    // Deflating or even measuring tens of MB of JSON is seconds of the page's thread, for a link no
    // address bar takes; the walk stops at the limit instead.
    if (jsonLongerThan(scenario, MAX_ADDRESS_SOURCE_CHARS)) {
      return {
        fragment: '',
        problem: `it is more than ${fmt(MAX_ADDRESS_SOURCE_CHARS)} characters of JSON, the most a link is made for`,
      };
    }
    let fragment: string;
    try {
      fragment = encodeScenario(scenario);
    } catch (error) {
      return { fragment: '', problem: error instanceof Error ? error.message : String(error) };
    }
    const { origin, pathname, search } = this.host.location();
    const length = origin.length + pathname.length + search.length + fragment.length;
    if (length > MAX_ADDRESS_CHARS) {
      return {
        fragment: '',
        problem: `its link would be ${fmt(length)} characters, more than an address bar takes (${fmt(MAX_ADDRESS_CHARS)})`,
      };
    }
    return { fragment };
  }

  /** Puts the open scenario's link in the address bar: a new history entry only when opening. */
  write(mode: 'push' | 'replace', fragment = this.linkOf(this.open().scenario).fragment): void {
    const write = this.withPending(mode);
    clearTimeout(this.timer);
    this.pending = null;
    this.fragment = scenarioPart(fragment);
    this.put(write);
  }

  /** The view changed (a scrub, a tab, the zoom, the inspector): the address follows, in place, once it settles. */
  writeViewSoon(delay: number): void {
    clearTimeout(this.viewTimer);
    this.viewTimer = setTimeout(() => this.writeView(), delay);
  }

  /** Writes a view change waiting in its timer now (the page is going away). */
  flushView(): void {
    if (this.viewTimer === undefined) return;
    this.writeView();
  }

  private writeView(): void {
    clearTimeout(this.viewTimer);
    this.viewTimer = undefined;
    // A write on its way carries the view; before it lands, the address still names what was open.
    if (this.pending !== null || this.fragment === '') return;
    this.put('replace');
  }

  private put(write: 'push' | 'replace'): void {
    clearTimeout(this.viewTimer);
    this.viewTimer = undefined;
    const { pathname, search, hash } = this.host.location();
    const full = this.fragment === '' ? '' : this.fragment + viewParams(this.view());
    this.written = full;
    const url = `${pathname}${search}${full}`;
    const state: HistoryState = { entryId: this.open().entryId };
    try {
      if (write === 'push' && scenarioPart(hash) !== this.fragment) this.host.history.pushState(state, '', url);
      else this.host.history.replaceState(state, '', url);
    } catch {
      // The browser refused the address (too long for it, or too many changes too fast): the
      // scenario is still on screen and in the library; the address catches up on the next edit.
    }
  }

  /** Writes the address after `delay` ms, once however often it is asked meanwhile. */
  writeSoon(delay: number, mode: 'push' | 'replace' = 'replace'): void {
    clearTimeout(this.timer);
    this.pending = this.withPending(mode);
    this.timer = setTimeout(() => this.write('replace'), delay);
  }

  /**
   * The address changed under the page (Back/Forward, a pasted link): `scenario` when it names
   * another scenario, `view` when only its view parts changed. False when it is the one this tab
   * wrote (popstate and hashchange both arrive for one change: the second finds it handled).
   */
  changed(): false | 'view' | 'scenario' {
    const { hash } = this.host.location();
    if (hash === this.written) return false;
    this.written = hash;
    clearTimeout(this.viewTimer);
    this.viewTimer = undefined;
    if (scenarioPart(hash) === this.fragment) return 'view';
    this.fragment = scenarioPart(hash);
    // The address now names another scenario: a pending rewrite of the old one must not land on it.
    clearTimeout(this.timer);
    this.pending = null;
    return 'scenario';
  }

  /** `mode`, unless an open's history entry is still waiting to be pushed: that push is kept. */
  private withPending(mode: 'push' | 'replace'): 'push' | 'replace' {
    return this.pending === 'push' ? 'push' : mode;
  }
}
