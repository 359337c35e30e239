// What an import brought in and what it left out, in words (lev import's stderr, the page's dialog).
import { fmt as n } from '../engine/page.ts';
import type { ImportReport } from './index.ts';

/** "an anthropic trace", "a codex trace". */
export const traceOf = (format: string): string => `${/^[aeiou]/.test(format) ? 'an' : 'a'} ${format} trace`;

/** One line per fact; `output` names the file the scenario went to. */
export function describeReport(r: ImportReport, output?: string): string[] {
  const lines =
    r.invalidUtf8At === undefined
      ? []
      : [
          `warning: not valid UTF-8 at byte ${r.invalidUtf8At} (the first bad sequence, counted from 0): bad bytes were read as U+FFFD, so that text differs from the original; save the trace as UTF-8 to import it exactly`,
        ];
  lines.push(
    `imported ${traceOf(r.format)}${output ? ` to ${output}` : ''}: ${n(r.events)} events (${n(r.inferences)} inferences, ${n(r.toolResults)} tool results, ${n(r.userMessages)} user messages); model ${r.model.used}${r.model.trace ? ` (trace: ${r.model.trace})` : ''}`,
  );
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  lines.push(
    r.task
      ? 'task: the first user message (inputs.task)'
      : 'task: none found (no user text before the first assistant turn)',
  );
  lines.push(
    r.recordedCalls > 0
      ? `recorded usage: ${n(r.recordedCalls)} of ${n(r.inferences)} inferences carry the provider's own token counts${r.window ? `; window ${n(r.window)} tokens as recorded` : ''}`
      : 'recorded usage: none in this trace (the run as it was sent can only be estimated)',
  );
  if (r.compactions)
    lines.push(`compactions: ${r.compactions} (the harness replaced its context with a summary; each is an event)`);
  if (r.notes)
    lines.push(
      `kept aside: ${r.notes} harness text${r.notes === 1 ? '' : 's'} (system prompt, instructions) in inputs.harness_system_prompt, not replayed`,
    );
  const mapped = r.tools.filter((t) => t.mappedTo !== t.name);
  if (mapped.length) lines.push(`tools mapped: ${mapped.map((t) => `${t.name} -> ${t.mappedTo}`).join(', ')}`);
  const skipped = Object.entries(r.skipped);
  if (skipped.length)
    lines.push(
      `skipped (the scenario format cannot hold them yet): ${skipped.map(([kind, count]) => `${count} ${kind}`).join(', ')}`,
    );
  if (r.unansweredCalls.length)
    lines.push(
      `${r.unansweredCalls.length} tool call${r.unansweredCalls.length === 1 ? '' : 's'} without a result (the replay strips them): ${r.unansweredCalls.join(', ')}`,
    );
  return lines;
}
