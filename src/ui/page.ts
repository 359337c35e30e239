// The page's one PageSession, as the components reach it: src/start.ts makes it before anything is
// drawn and binds it here. Its stores are hooks with zustand's selectors (and getState for event
// handlers); its actions are called on `page()`.
import { useStore, type StoreApi } from 'zustand';
import type { Scenario } from '../engine/page.ts';
import type { PageSession } from '../state/page-session.ts';
import type { Transform } from '../worker/protocol.ts';

const bound: { session?: PageSession } = {};

/** Binds the session the components use (once, as the page starts). */
export function bindPage(session: PageSession): void {
  bound.session = session;
}

/** The page's session. */
export function page(): PageSession {
  if (!bound.session) throw new Error('the page session has not started (src/start.ts binds it before the first draw)');
  return bound.session;
}

/** A hook over one of the session's stores, `useStore`-style, with the store's getState for code outside React. */
export interface SessionStore<T> {
  (): T;
  <U>(selector: (state: T) => U): U;
  getState(): T;
}

function sessionStore<T>(pick: (session: PageSession) => StoreApi<T>): SessionStore<T> {
  function useSessionStore(): T;
  function useSessionStore<U>(selector: (state: T) => U): U;
  function useSessionStore<U>(selector?: (state: T) => U): T | U {
    const store = pick(page());
    // The store is the same on every render of a page, so the hook is always called the same way.
    return selector ? useStore(store, selector) : useStore(store);
  }
  return Object.assign(useSessionStore, { getState: () => pick(page()).getState() });
}

export const useScenario = sessionStore((s) => s.scenario);
export const useUi = sessionStore((s) => s.ui);
export const useResults = sessionStore((s) => s.results);
export const useLibrary = sessionStore((s) => s.library);
export const useAdvisor = sessionStore((s) => s.advisor.store);

/** An imported file: saved to the library at once and opened. */
export const openImported = (scenario: Scenario, file: string): Promise<void> => page().openImported(scenario, file);

/** A share option that counts tokens, done by the engine worker (which has the tokenizer). */
export const transformScenario = (scenario: Scenario, transform: Transform): Promise<Scenario> =>
  page().transform(scenario, transform);
