// The recorded run's lines, drawn over the blueprint's figures on the window and cache charts: Paul
// Tol's purple and teal, which no region takes (REGION_PALETTE in chartData.ts).
export const RECORDED_COLOUR = '#AA3377';
export const AS_SENT_COLOUR = '#44AA99';
