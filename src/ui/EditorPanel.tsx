// The agent directory's files in Monaco, and one list of problems (diagnostics and run warnings).
import { useEffect, useRef, useState } from 'react';
import Editor, { type OnMount } from '@monaco-editor/react';
import { monaco, languageOf } from './monaco/setup.ts';
import { DARK_THEME } from './monaco/providers.ts';
import { useScenario } from '../state/store.ts';
import { useUi } from '../state/ui.ts';
import { AGENT_FILE } from '../state/scenario.ts';
import { useAllDiagnostics } from './diagnostics.ts';
import type { Diagnostic } from '../engine/diagnostics.ts';
import { PaneHead } from './layout/Pane.tsx';
import { requestRun } from './shortcuts.ts';
import { RUN_WARNING_CODE } from './runProblems.ts';

type CodeEditor = Parameters<OnMount>[0];

const MARKER_OWNER = 'leviath';
const SEVERITY = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  info: monaco.MarkerSeverity.Info,
} as const;

function uriOf(path: string): monaco.Uri {
  return monaco.Uri.parse(`file:///agent/${path}`);
}

/** Puts every file's diagnostics on its Monaco model (models exist once a tab has been opened). */
function useMarkers(diagnostics: Diagnostic[], files: string[]): void {
  useEffect(() => {
    for (const file of files) {
      const model = monaco.editor.getModel(uriOf(file));
      if (!model) continue;
      const lines = model.getLineCount();
      monaco.editor.setModelMarkers(model, MARKER_OWNER, diagnostics.filter((d) => d.file === file).map((d) => {
        const line = Math.min(Math.max(1, d.line), lines);
        return {
          severity: SEVERITY[d.severity],
          message: `${d.message} [${d.code}]`,
          startLineNumber: line,
          startColumn: Math.max(1, d.column),
          endLineNumber: Math.min(d.endLine ?? line, lines),
          endColumn: d.endColumn ?? model.getLineMaxColumn(line),
        };
      }));
    }
  });
}

/**
 * Keeps Monaco's models in line with the store for files not on screen: a loaded example, an
 * import or a share link replaces the files, and a deleted or renamed file's model goes away.
 */
function useModelsInSync(agent: Record<string, string>, current: string): void {
  useEffect(() => {
    for (const model of monaco.editor.getModels()) {
      if (!model.uri.path.startsWith('/agent/')) continue;
      const path = model.uri.path.slice('/agent/'.length);
      if (path === current) continue;
      if (!(path in agent)) model.dispose();
      else if (model.getValue() !== agent[path]) model.setValue(agent[path]);
    }
  }, [agent, current]);
}

function FileTabs({ files, errorsByFile }: { files: string[]; errorsByFile: Map<string, number> }) {
  const selected = useUi((s) => s.selectedFile);
  const selectFile = useUi((s) => s.selectFile);
  const { addFile, renameFile, deleteFile } = useScenario.getState();
  const notify = useUi((s) => s.notify);

  const add = () => {
    const path = window.prompt('New file in the agent directory (e.g. context_hooks/brain.rhai):', 'context_hooks/new.rhai');
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
        <button key={f} role="tab" aria-selected={f === selected} className={`tab ${f === selected ? 'active' : ''}`} onClick={() => selectFile(f)} title={f}>
          {f.split('/').pop()}
          {errorsByFile.get(f) ? <span className="count" aria-label={`${errorsByFile.get(f)} errors`}>{errorsByFile.get(f)}</span> : null}
        </button>
      ))}
      </div>
      <span className="spacer" />
      <button className="icon" title="Add a file (a hook script, a seed script)" onClick={add}>+</button>
      <button className="icon" title="Rename this file" onClick={rename} disabled={selected === AGENT_FILE}>✎</button>
      <button className="icon" title="Delete this file" onClick={remove} disabled={selected === AGENT_FILE}>✕</button>
    </div>
  );
}

export function DiagnosticsList({ diagnostics, onJump }: { diagnostics: Diagnostic[]; onJump: (d: Diagnostic) => void }) {
  if (diagnostics.length === 0) {
    return <div className="diag-list" data-testid="diagnostics"><div className="muted" style={{ padding: '3px 8px' }}>✓ No problems found.</div></div>;
  }
  return (
    <div className="diag-list" data-testid="diagnostics" aria-label="Problems">
      {diagnostics.map((d, i) => (
        <button key={i} className="diag" onClick={() => onJump(d)} title="Jump to this line" data-code={d.code}>
          <span className={`sev-${d.severity}`}>{d.severity === 'error' ? '✖' : d.severity === 'warning' ? '▲' : 'ℹ'}</span>
          <span className="where">{d.file}:{d.line}:{d.column}</span>
          <span>{d.message} <span className="muted mono">[{d.code}]</span></span>
        </button>
      ))}
    </div>
  );
}

/** Vim keys (monaco-vim, loaded only when turned on), with its mode line under the editor. */
function useVimMode(editor: CodeEditor | null, on: boolean, status: React.RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    if (!on || !editor || !status.current) return;
    let vim: { dispose: () => void } | null = null;
    let cancelled = false;
    void import('monaco-vim').then(({ initVimMode }) => {
      if (!cancelled && status.current) vim = initVimMode(editor, status.current);
    });
    return () => { cancelled = true; vim?.dispose(); };
  }, [editor, on, status]);
}

export function EditorPanel() {
  const agent = useScenario((s) => s.scenario.agent);
  const setFile = useScenario((s) => s.setFile);
  const selected = useUi((s) => s.selectedFile);
  const selectFile = useUi((s) => s.selectFile);
  const theme = useUi((s) => s.theme);
  const settings = useUi((s) => s.settings);
  const diagnostics = useAllDiagnostics();
  const editorRef = useRef<CodeEditor | null>(null);
  const [pendingJump, setPendingJump] = useState<Diagnostic | null>(null);
  const [columns, setColumns] = useState(0);
  const [mounted, setMounted] = useState<CodeEditor | null>(null);
  const vimStatus = useRef<HTMLDivElement>(null);
  useVimMode(mounted, settings.vim, vimStatus);
  const files = [AGENT_FILE, ...Object.keys(agent).filter((f) => f !== AGENT_FILE).sort()];
  const current = selected in agent ? selected : AGENT_FILE;

  useMarkers(diagnostics, files);
  useModelsInSync(agent, current);

  useEffect(() => {
    const editor = editorRef.current;
    if (!pendingJump || !editor || pendingJump.file !== current) return;
    const position = { lineNumber: pendingJump.line, column: pendingJump.column };
    editor.revealLineInCenter(position.lineNumber);
    editor.setPosition(position);
    editor.focus();
    setPendingJump(null);
  }, [pendingJump, current]);

  const errorsByFile = new Map<string, number>();
  for (const d of diagnostics) if (d.severity === 'error') errorsByFile.set(d.file, (errorsByFile.get(d.file) ?? 0) + 1);

  const jump = (d: Diagnostic) => {
    if (d.file in agent) selectFile(d.file);
    setPendingJump(d);
    // A run-time warning also scrubs to the step it first happened at.
    const step = /^Replay at step (\d+)/.exec(d.message);
    if (d.code === RUN_WARNING_CODE && step) useUi.getState().setStep(Number(step[1]) - 1);
  };

  return (
    <section className="panel" aria-labelledby="pane-title-editor" data-pane="editor">
      <PaneHead><span className="muted ellipsis">the blueprint and its hook scripts</span></PaneHead>
      <FileTabs files={files} errorsByFile={errorsByFile} />
      <div className="editor-host" data-testid="editor" data-columns={columns}>
        <Editor
          path={uriOf(current).toString()}
          language={languageOf(current)}
          value={agent[current] ?? ''}
          theme={theme === 'dark' ? DARK_THEME : 'vs'}
          onChange={(text) => setFile(current, text ?? '')}
          onMount={(editor) => {
            editorRef.current = editor;
            setMounted(editor);
            // How many columns fit (the layout promises at least 60 at 1024 px wide).
            const measure = () => setColumns(editor.getLayoutInfo().viewportColumn);
            measure();
            editor.onDidLayoutChange(measure);
            editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, requestRun);
          }}
          options={{
            minimap: { enabled: settings.minimap }, fontSize: settings.fontSize, scrollBeyondLastLine: false, tabSize: 4,
            automaticLayout: true, wordWrap: settings.wordWrap ? 'on' : 'off', renderLineHighlight: 'line', fixedOverflowWidgets: true,
            lineNumbersMinChars: 3, ariaLabel: `Editor for ${current}. Press Ctrl+M to make Tab move the focus out.`,
          }}
        />
      </div>
      {settings.vim && <div ref={vimStatus} className="vim-status mono small" data-testid="vim-status" aria-live="polite" />}
      <DiagnosticsList diagnostics={diagnostics} onJump={jump} />
    </section>
  );
}
