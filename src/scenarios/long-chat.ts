// A long chat: user and assistant turns of varied length, with the occasional pasted document,
// long enough that a flat message list loses its first message.
import { z } from 'zod';
import type { Random } from './random.ts';
import { positiveRange } from './ranges.ts';
import { lines, prose } from './text.ts';
import { TrafficBuilder } from './traffic-builder.ts';

export const LongChatParamsSchema = z
  .object({
    userWords: positiveRange.default([8, 120]).describe('Words per user turn, [min, max].'),
    assistantWords: positiveRange.default([20, 260]).describe('Words per assistant turn, [min, max].'),
    pasteShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.06)
      .describe('Share of user turns that paste a long document instead.'),
    pasteWords: positiveRange.default([300, 900]).describe('Words per pasted document, [min, max].'),
  })
  .strict();
export type LongChatParams = z.infer<typeof LongChatParamsSchema>;

const between = (random: Random, [min, max]: readonly [number, number]) => random.int(min, max);

export function longChat(random: Random, steps: number, params: LongChatParams) {
  const traffic = new TrafficBuilder();
  traffic.user('Let us work through the task together. I will add details as we go.');
  traffic.assistant(prose(random, between(random, params.assistantWords)));
  while (traffic.length < steps) {
    traffic.user(
      random.chance(params.pasteShare)
        ? `Here is the document:\n${lines(random, between(random, params.pasteWords))}`
        : prose(random, between(random, params.userWords)),
    );
    traffic.assistant(prose(random, between(random, params.assistantWords)));
  }
  return traffic.events;
}
