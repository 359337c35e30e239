// The Share dialog's options for a run that holds real content (an imported trace): "shape only"
// (chosen by default for an import) and "hash the file paths". Shape only counts tokens, so the
// engine worker (which has the tokenizer) does it; hashing loads its code only when chosen.
import type { Scenario } from '../../engine/page.ts';
import type { Origin } from '../../state/library.ts';
import { transformScenario } from '../page.ts';

export const SHAPE_ONLY = 'shape-only';

export const SHAPE_OPTIONS = [
  {
    id: SHAPE_ONLY,
    label: 'Shape only',
    explain:
      "Every text (messages, tool output, the task) is replaced by its token count; tool names and file paths are kept. The link shows the same charts without the run's content.",
    applies: (s: Scenario) => holdsText(s),
    apply: (s: Scenario) => transformScenario(s, 'shape-only'),
  },
  {
    id: 'hash-paths',
    label: 'Hash the file paths',
    explain:
      'Each path becomes path-<hash>.<ext>; the same path always gives the same hash, so routing and file tracking still line up.',
    applies: (s: Scenario) =>
      s.traffic.some((e) => e.type === 'assistant' && e.tool_calls?.some((c) => typeof c.arguments.path === 'string')),
    apply: async (s: Scenario) => (await import('../../import/shape.ts')).hashScenarioPaths(s),
  },
];

/** Whether any message or tool result carries its text (what shape only replaces). */
function holdsText(s: Scenario): boolean {
  return s.traffic.some((e) =>
    e.type === 'user' || e.type === 'assistant'
      ? e.content.length > 0
      : e.type === 'tool_result' && e.content !== undefined,
  );
}

/** An imported run is shared shape-only unless the user asks for the full link. */
export function defaultShareOptions(scenario: Scenario, origin: Origin): Set<string> {
  return new Set(origin.kind === 'import' && holdsText(scenario) ? [SHAPE_ONLY] : []);
}

/** Firefox's address bar stops at 65,536 characters; a full link longer than that is not offered. */
export const MAX_FULL_LINK_CHARS = 65_536;
