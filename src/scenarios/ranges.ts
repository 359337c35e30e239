// `[min, max]` parameters shared by the generators.
import { z } from 'zod';

export const positiveRange = z.tuple([z.number().int().positive(), z.number().int().positive()])
  .refine(([min, max]) => min <= max, { message: 'give [min, max] with min <= max' });
