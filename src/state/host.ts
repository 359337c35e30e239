// What a PageSession needs of the browser, passed in rather than reached for: the page gives it the
// window's (src/start.ts), unit tests a fake. The state layer reads no other global of the browser.

/** The address the tab shows; read afresh each time (Back and Forward change it). */
export interface Address {
  href: string;
  hash: string;
  pathname: string;
  search: string;
  origin: string;
}

export interface PageHost {
  location(): Address;
  history: {
    readonly state: unknown;
    pushState(state: unknown, unused: string, url: string): void;
    replaceState(state: unknown, unused: string, url: string): void;
  };
  /** The page's own events: Back/Forward, a pasted link, the tab going away. */
  listen(event: 'popstate' | 'hashchange' | 'pagehide', listener: () => void): void;
  clipboard: { writeText(text: string): Promise<void> };
  /** localStorage, or null when the browser refuses it (preferences and the replay guard are then not kept). */
  storage: Storage | null;
  /**
   * sessionStorage (this tab's, kept across a reload), or null when refused: what the tab leaves as
   * it goes (edits not saved yet, the step), since a reload waits neither for IndexedDB nor for an
   * address rewritten during pagehide.
   */
  tabStorage: Storage | null;
  /**
   * Whether this page is a reload of the tab (Navigation Timing's type). Chromium may reload with
   * the history entry's state gone (null) and its address as it was before the last rewrite when a
   * rewrite and the reload cross, so a reload is not known by history.state alone.
   */
  reloaded: boolean;
  /** Whether the browser prefers a dark theme (Settings' "system"). */
  prefersDark: boolean;
  /** How many pixels wide the charts are: each replay's series are downsampled to about half that many points. */
  chartWidth(): number;
}
