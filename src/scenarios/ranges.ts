// `[min, max]` parameters shared by the generators.
import { z } from 'zod';
import { MAX_RESULT_SIZE_TOKENS, fmt } from '../engine/page.ts';

// Sizes (tokens or words per event) are built in memory: past this bound one event would exhaust it.
const size = z
  .number()
  .int()
  .positive()
  .max(MAX_RESULT_SIZE_TOKENS, {
    message: `at most ${fmt(MAX_RESULT_SIZE_TOKENS)} per event`,
  });

export const positiveRange = z
  .tuple([size, size])
  .refine(([min, max]) => min <= max, { message: 'give [min, max] with min <= max' });
