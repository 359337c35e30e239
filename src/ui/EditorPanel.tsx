// The agent directory's files in Monaco, and one list of problems (diagnostics and run warnings).
// Monaco comes in chunks of its own (monaco/load.ts, then CodeEditor.tsx), fetched once the first
// replay's charts are drawn so it does not compete with the charts; until it arrives the file is shown
// read-only.
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { AGENT_FILE } from '../state/scenario.ts';
import { useAllDiagnostics } from './diagnostics.ts';
import type { Diagnostic } from '../engine/page.ts';
import { PaneHead } from './layout/Pane.tsx';
import { RUN_WARNING_CODE } from './runProblems.ts';
import { loadMonaco } from './monaco/load.ts';
import { useResults, useScenario, useUi } from './page.ts';

const CodeEditor = lazy(async () => {
  await loadMonaco();
  const editor = await import('./CodeEditor.tsx');
  await editor.prepareEditor();
  return editor;
});
/** When no replay answers (a slow one, auto-run off), the editor is fetched anyway after this long. */
const EDITOR_AT_LATEST_MS = 5_000;

/** Runs `task` when the main thread is idle (at the latest after a second); Safari has no requestIdleCallback. */
function requestWhenIdle(task: () => void): { cancel: () => void } {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 1_000 });
    return { cancel: () => cancelIdleCallback(id) };
  }
  const id = setTimeout(task, 200);
  return { cancel: () => clearTimeout(id) };
}

/**
 * Whether to fetch Monaco now: the first replay's charts are drawn (or it answered with no charts to
 * draw), the user reached for the text, or time is up. Never goes back.
 */
function useEditorWanted(): [boolean, () => void] {
  const answered = useResults(
    (s) => s.drawn !== null || s.replayDiagnostics.length > 0 || ['failed', 'held'].includes(s.status.kind),
  );
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!answered) return;
    // Idle, not at once: what the charts set off as they draw (the tooltip's, the readout's) goes first.
    const idle = requestWhenIdle(() => setWanted(true));
    return () => idle.cancel();
  }, [answered]);
  useEffect(() => {
    const timer = setTimeout(() => setWanted(true), EDITOR_AT_LATEST_MS);
    return () => clearTimeout(timer);
  }, []);
  return [wanted, useCallback(() => setWanted(true), [])];
}

function FileTabs({ files, errorsByFile }: { files: string[]; errorsByFile: Map<string, number> }) {
  const selected = useUi((s) => s.selectedFile);
  const selectFile = useUi((s) => s.selectFile);
  const { addFile, renameFile, deleteFile } = useScenario.getState();
  const notify = useUi((s) => s.notify);

  const add = () => {
    const path = window.prompt(
      'New file in the agent directory (e.g. context_hooks/brain.rhai):',
      'context_hooks/new.rhai',
    );
    if (path === null) return;
    const starter = path.endsWith('.rhai') ? 'fn render(ctx) {\n    ""\n}\n' : '';
    const problem = addFile(path.trim(), starter);
    if (problem) notify({ tone: 'error', text: problem });
    else selectFile(path.trim());
  };
  const rename = () => {
    const to = window.prompt(`Rename ${selected} to:`, selected);
    if (to === null || to.trim() === selected) return;
    const problem = renameFile(selected, to.trim());
    if (problem) notify({ tone: 'error', text: problem });
    else selectFile(to.trim());
  };
  const remove = () => {
    if (!window.confirm(`Delete ${selected}?`)) return;
    deleteFile(selected);
    selectFile(AGENT_FILE);
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label="Agent files" className="tab-list">
        {files.map((f) => (
          <button
            key={f}
            role="tab"
            aria-selected={f === selected}
            className={`tab ${f === selected ? 'active' : ''}`}
            onClick={() => selectFile(f)}
            title={f}
          >
            {f.split('/').pop()}
            {errorsByFile.get(f) ? (
              <span className="count" aria-label={`${errorsByFile.get(f)} errors`}>
                {errorsByFile.get(f)}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <span className="spacer" />
      <button className="icon" title="Add a file (a hook script, a seed script)" onClick={add}>
        +
      </button>
      <button className="icon" title="Rename this file" onClick={rename} disabled={selected === AGENT_FILE}>
        ✎
      </button>
      <button className="icon" title="Delete this file" onClick={remove} disabled={selected === AGENT_FILE}>
        ✕
      </button>
    </div>
  );
}

export function DiagnosticsList({
  diagnostics,
  onJump,
}: {
  diagnostics: Diagnostic[];
  onJump: (d: Diagnostic) => void;
}) {
  if (diagnostics.length === 0) {
    return (
      <div className="diag-list" data-testid="diagnostics">
        <div className="muted" style={{ padding: '3px 8px' }}>
          ✓ No problems found.
        </div>
      </div>
    );
  }
  return (
    <div className="diag-list" data-testid="diagnostics" aria-label="Problems">
      {diagnostics.map((d, i) => (
        <button key={i} className="diag" onClick={() => onJump(d)} title="Jump to this line" data-code={d.code}>
          <span className={`sev-${d.severity}`}>
            {d.severity === 'error' ? '✖' : d.severity === 'warning' ? '▲' : 'ℹ'}
          </span>
          <span className="where">
            {d.file}:{d.line}:{d.column}
          </span>
          <span>
            {d.message} <span className="muted mono">[{d.code}]</span>
          </span>
        </button>
      ))}
    </div>
  );
}

/** The file's text while Monaco loads: nothing the user has is hidden, nothing can be lost. */
function EditorLoading({ path, text, onFocus }: { path: string; text: string; onFocus?: () => void }) {
  return (
    <div className="editor-loading" data-testid="editor-loading">
      <div className="muted small" role="status">
        loading editor…
      </div>
      <textarea
        className="mono"
        readOnly
        value={text}
        onFocus={onFocus}
        aria-label={`${path} (read-only until the editor has loaded)`}
      />
    </div>
  );
}

export function EditorPanel() {
  const agent = useScenario((s) => s.scenario.agent);
  const selected = useUi((s) => s.selectedFile);
  const selectFile = useUi((s) => s.selectFile);
  const diagnostics = useAllDiagnostics();
  const [pendingJump, setPendingJump] = useState<Diagnostic | null>(null);
  const [columns, setColumns] = useState(0);
  const jumped = useCallback(() => setPendingJump(null), []);
  const [editorWanted, wantEditor] = useEditorWanted();
  const files = [
    AGENT_FILE,
    ...Object.keys(agent)
      .filter((f) => f !== AGENT_FILE)
      .sort(),
  ];
  const current = selected in agent ? selected : AGENT_FILE;

  const errorsByFile = new Map<string, number>();
  for (const d of diagnostics)
    if (d.severity === 'error') errorsByFile.set(d.file, (errorsByFile.get(d.file) ?? 0) + 1);

  const jump = (d: Diagnostic) => {
    if (d.file in agent) selectFile(d.file);
    setPendingJump(d);
    // A run-time warning also scrubs to the step it first happened at.
    const step = /^Replay at step (\d+)/.exec(d.message);
    if (d.code === RUN_WARNING_CODE && step) useUi.getState().setStep(Number(step[1]) - 1);
  };

  return (
    <section className="panel" aria-labelledby="pane-title-editor" data-pane="editor">
      <PaneHead>
        <span className="muted ellipsis">the blueprint and its hook scripts</span>
      </PaneHead>
      <FileTabs files={files} errorsByFile={errorsByFile} />
      <div className="editor-host" data-testid="editor" data-columns={columns}>
        {editorWanted ? (
          <Suspense fallback={<EditorLoading path={current} text={agent[current] ?? ''} />}>
            <CodeEditor
              agent={agent}
              files={files}
              current={current}
              diagnostics={diagnostics}
              jump={pendingJump}
              onJumped={jumped}
              onColumns={setColumns}
            />
          </Suspense>
        ) : (
          <EditorLoading path={current} text={agent[current] ?? ''} onFocus={wantEditor} />
        )}
      </div>
      <DiagnosticsList diagnostics={diagnostics} onJump={jump} />
    </section>
  );
}
