// UI state: what is selected, scrubbed, playing, and how it looks. Engine results live in results.ts.
import { create } from 'zustand';
import { AGENT_FILE } from './scenario.ts';

export type Theme = 'light' | 'dark';
/** `sticky` (and any notice with an action) stays until dismissed: its Undo must not expire. */
export type Notice = { id: number; tone: 'info' | 'error'; text: string; sticky?: boolean; action?: { label: string; run: () => void } };

export const SPEEDS = [1, 2, 5, 10, 25] as const;

export interface UiStore {
  selectedFile: string;
  /** The scrubbed step (index into timeline.steps). */
  step: number;
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  theme: Theme;
  /** Region focused in the inspector; null shows all. */
  focusRegion: string | null;
  notices: Notice[];
  selectFile: (path: string) => void;
  setStep: (step: number) => void;
  setPlaying: (playing: boolean) => void;
  setSpeed: (speed: number) => void;
  setTheme: (theme: Theme) => void;
  setFocusRegion: (region: string | null) => void;
  notify: (notice: Omit<Notice, 'id'>) => void;
  dismiss: (id: number) => void;
}

let noticeId = 1;

export const useUi = create<UiStore>()((set) => ({
  selectedFile: AGENT_FILE,
  step: 0,
  playing: false,
  speed: 5,
  theme: 'light',
  focusRegion: null,
  notices: [],
  selectFile: (selectedFile) => set({ selectedFile }),
  setStep: (step) => set({ step: Math.max(0, step) }),
  setPlaying: (playing) => set({ playing }),
  setSpeed: (speed) => set({ speed }),
  setTheme: (theme) => set({ theme }),
  setFocusRegion: (focusRegion) => set({ focusRegion }),
  notify: (notice) => set((s) => {
    // The same message twice in a row is one notice, not a stack.
    const rest = s.notices.filter((n) => n.text !== notice.text);
    return { notices: [...rest, { ...notice, id: noticeId++ }].slice(-4) };
  }),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));
