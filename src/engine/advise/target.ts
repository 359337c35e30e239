// The advisor's target, apart from the search so the page's main thread can name it without
// loading the replay: issue 29's goal for a proposal against the run it is compared with.

/** The goal's bound on entries read again later (issue 29: at most 2). */
export const GOAL_READ_AGAIN = 2;
/** The goal's bound on the peak request, as a share of the reference's (issue 29: at most 0.6x). */
export const GOAL_PEAK_SHARE = 0.6;

/** The three measures and the task, of a proposal or of the run it is compared with. */
export interface Measured {
  peakRequestTokens: number;
  inputCostUsd: number;
  readAgain: number;
  taskKept: boolean;
}

/** The advisor's target (issue 29's goal): at most 0.6x the reference's peak, no more cost, the task kept, at most 2 read again. */
export function meetsTarget(f: Measured, reference: Measured): boolean {
  return (
    f.peakRequestTokens <= GOAL_PEAK_SHARE * reference.peakRequestTokens &&
    f.inputCostUsd <= reference.inputCostUsd &&
    f.taskKept &&
    f.readAgain <= GOAL_READ_AGAIN
  );
}
