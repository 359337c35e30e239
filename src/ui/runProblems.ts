// The run's warnings (grouped by the engine worker) as problems with a place: a hook failure points at its script
// position, a warning naming a region at that region's declaration, anything else at the top of
// agent.leviath. Each says the step it first happened at and how often.
import type { Diagnostic } from '../engine/page.ts';
import type { WarningGroup } from '../worker/timeline-view.ts';
import { AGENT_FILE } from '../state/scenario.ts';
import { itemAt } from '../engine/page.ts';

/** The problems-list code of a run-time warning (stable, like every diagnostic code). */
export const RUN_WARNING_CODE = 'run-warning';

const SCRIPT_POSITION = /at (\S+) line (\d+), column (\d+)/;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The line declaring `region` in the blueprint (inline, header or dotted form), or 0. */
function declarationLine(blueprint: string, region: string): number {
  const name = escape(region);
  const forms = [
    new RegExp(`^\\s*\\[(?:stages\\.[^\\]]+\\.)?context\\.regions\\.("?)${name}\\1\\s*\\]`),
    new RegExp(`^\\s*("?)${name}\\1\\s*(=|\\.)`),
  ];
  const lines = blueprint.split('\n');
  for (const form of forms) {
    const k = lines.findIndex((l) => form.test(l));
    if (k >= 0) return k + 1;
  }
  return 0;
}

function locate(
  text: string,
  agent: Record<string, string>,
  regions: readonly string[],
): { file: string; line: number; column: number } {
  const script = SCRIPT_POSITION.exec(text);
  if (script && itemAt(script, 1) in agent)
    return { file: itemAt(script, 1), line: Number(script[2]), column: Number(script[3]) };
  const blueprint = agent[AGENT_FILE] ?? '';
  // The longest region name the warning mentions wins (`history` over `his`).
  const named = [...regions]
    .sort((a, b) => b.length - a.length)
    .find((r) => new RegExp(`(^|[^\\w])${escape(r)}([^\\w]|$)`).test(text));
  const line = named ? declarationLine(blueprint, named) : 0;
  return { file: AGENT_FILE, line: Math.max(1, line), column: 1 };
}

export function runProblems(
  warnings: readonly WarningGroup[],
  regions: readonly string[],
  agent: Record<string, string>,
): Diagnostic[] {
  return warnings.map(({ text, first, count }) => {
    const when =
      first === null ? 'before the first step' : `at step ${first + 1}${count > 1 ? ` and ${count - 1} more` : ''}`;
    return {
      code: RUN_WARNING_CODE,
      severity: 'warning' as const,
      message: `Replay ${when}: ${text}`,
      path: '',
      ...locate(text, agent, regions),
    };
  });
}
