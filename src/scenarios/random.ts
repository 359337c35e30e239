// The generators' seeded PRNG is the engine's (the advisor's search draws from the same one).
export { createRandom, type Random } from '../engine/page.ts';
