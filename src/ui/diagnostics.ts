// Which diagnostics belong to which file, in the order a person reads them.
import { useMemo } from 'react';
import type { Diagnostic } from '../engine/page.ts';
import { runProblems } from './runProblems.ts';
import { useResults, useScenario } from './page.ts';

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

function sameFinding(a: Diagnostic, b: Diagnostic): boolean {
  return (
    a.file === b.file && a.line === b.line && a.column === b.column && (a.message === b.message || a.code === b.code)
  );
}

function mergeDiagnostics(lists: readonly (readonly Diagnostic[])[]): Diagnostic[] {
  const all: Diagnostic[] = [];
  for (const d of lists.flat()) {
    if (!all.some((x) => sameFinding(x, d))) all.push(d);
  }
  return all.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column,
  );
}

/**
 * Blueprint findings, replay findings, Rhai parse errors and the timeline's run-time warnings, in
 * one list, deduplicated. Merged only when one of them changes, not on every keystroke's render of
 * the editor (run warnings are placed against the files of the scenario that produced them).
 */
export function useAllDiagnostics(): Diagnostic[] {
  const validation = useResults((s) => s.validation);
  const rhai = useResults((s) => s.rhai);
  const replayDiagnostics = useResults((s) => s.replayDiagnostics);
  const timeline = useResults((s) => s.timeline);
  const run = useMemo(
    () =>
      timeline
        ? runProblems(
            timeline.warnings,
            timeline.header.regions.map((r) => r.name),
            useScenario.getState().scenario.agent,
          )
        : [],
    [timeline],
  );
  return useMemo(
    () => mergeDiagnostics([validation?.diagnostics ?? [], ...Object.values(rhai), replayDiagnostics, run]),
    [validation, rhai, replayDiagnostics, run],
  );
}
