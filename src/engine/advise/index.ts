// The blueprint advisor (issue 29): the search, and what it returns. Pure engine code, so the page's
// engine worker runs the same search the CLI does.
export { advise, referenceOf, DEFAULT_CANDIDATES, DEFAULT_PROPOSALS } from './search.ts';
export { GOAL_PEAK_SHARE, GOAL_READ_AGAIN } from './target.ts';
export type { Advice, AdviseOptions, AdviseProgress, Proposal, Reference } from './search.ts';
export type { Edit } from './space.ts';
