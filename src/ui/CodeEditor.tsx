// Monaco on one agent file, with every file's problems as markers. EditorPanel loads this module
// on demand (React.lazy): Monaco is most of the page's code, so the charts and controls are drawn
// and usable before it arrives.
import { useCallback, useEffect, useMemo, useState } from 'react';
import Editor, { loader, type OnMount } from '@monaco-editor/react';
import { FontMeasurements } from 'monaco-editor/editor/browser/config/fontMeasurements';
import { createBareFontInfoFromRawSettings } from 'monaco-editor/editor/common/config/fontInfoFromSettings';
import { PixelRatio } from 'monaco-editor/base/browser/pixelRatio';
import { monaco, languageOf } from './monaco/setup.ts';
import { nextFrame, nextTask } from './tasks.ts';
import { DARK_THEME } from './monaco/providers.ts';
import { AGENT_FILE } from '../state/scenario.ts';
import type { Diagnostic } from '../engine/page.ts';
import type { Keybindings } from '../state/preferences.ts';
import { page, useScenario, useUi } from './page.ts';
import './monaco/keys-status.css';

// @monaco-editor/react gets the bundled instance instead of fetching one.
loader.config({ monaco });

type MonacoEditor = Parameters<OnMount>[0];

const MARKER_OWNER = 'leviath';
const SEVERITY = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  info: monaco.MarkerSeverity.Info,
} as const;

const uris = new Map<string, monaco.Uri>();

/** A file's model address, parsed once per path (every render asks for it, and the markers for every file). */
function uriOf(path: string): monaco.Uri {
  let uri = uris.get(path);
  if (!uri) uris.set(path, (uri = monaco.Uri.parse(`file:///agent/${path}`)));
  return uri;
}

/** Puts every file's diagnostics on its Monaco model (models exist once a tab has been opened). */
function useMarkers(diagnostics: Diagnostic[], files: string[]): void {
  useEffect(() => {
    for (const file of files) {
      const model = monaco.editor.getModel(uriOf(file));
      if (!model) continue;
      const lines = model.getLineCount();
      monaco.editor.setModelMarkers(
        model,
        MARKER_OWNER,
        diagnostics
          .filter((d) => d.file === file)
          .map((d) => {
            const line = Math.min(Math.max(1, d.line), lines);
            return {
              severity: SEVERITY[d.severity],
              message: `${d.message} [${d.code}]`,
              startLineNumber: line,
              startColumn: Math.max(1, d.column),
              endLineNumber: Math.min(d.endLine ?? line, lines),
              endColumn: d.endColumn ?? model.getLineMaxColumn(line),
            };
          }),
      );
    }
  });
}

/**
 * Keeps Monaco's models in line with the store: a loaded example, an import or a share link
 * replaces the files, and a deleted or renamed file's model goes away. The file on screen gets the
 * new text as an edit (so Ctrl+Z brings its old text back) in a task of its own: applying and
 * laying out a whole file is tens of milliseconds, and so is the page's render of the new scenario.
 * Typing needs nothing here: the store already holds the editor's text. `onApplied` hears when
 * the new text is in (the markers are placed again on it).
 */
function useModelsInSync(
  editor: MonacoEditor | null,
  agent: Record<string, string>,
  current: string,
  onApplied: () => void,
): void {
  useEffect(() => {
    for (const model of monaco.editor.getModels()) {
      if (!model.uri.path.startsWith('/agent/')) continue;
      const path = model.uri.path.slice('/agent/'.length);
      if (path === current && editor) continue;
      const text = agent[path];
      if (text === undefined) model.dispose();
      else if (model.getValue() !== text) model.setValue(text);
    }
    const text = agent[current];
    if (!editor || text === undefined || editor.getValue() === text) return;
    let cancelled = false;
    void nextTask().then(() => {
      const model = editor.getModel();
      if (cancelled || !model || model.getValue() === text) return;
      editor.executeEdits(MARKER_OWNER, [{ range: model.getFullModelRange(), text, forceMoveMarkers: true }]);
      editor.pushUndoStop();
      onApplied();
    });
    return () => {
      cancelled = true;
    };
  }, [editor, agent, current, onApplied]);
}

/** Moves the cursor to a diagnostic once its file is the one on screen. */
function useJump(editor: MonacoEditor | null, jump: Diagnostic | null, current: string, onJumped: () => void): void {
  useEffect(() => {
    if (!jump || !editor || jump.file !== current) return;
    editor.revealLineInCenter(jump.line);
    editor.setPosition({ lineNumber: jump.line, column: jump.column });
    editor.focus();
    onJumped();
  }, [editor, jump, current, onJumped]);
}

/**
 * What creating the editor would do in its one long task, done before it in tasks of their own: the
 * model of the file on screen (kept in line with the store until the editor mounts: useModelsInSync);
 * Monaco's theme stylesheet, after which the next style recalculation covers the whole page (left to
 * the next frame); measuring the font (a forced layout; Monaco keeps the measurement for the editor).
 */
export async function prepareEditor(): Promise<void> {
  const agent = useScenario.getState().scenario.agent;
  const { selectedFile, settings } = useUi.getState();
  const path = selectedFile in agent ? selectedFile : AGENT_FILE;
  if (!monaco.editor.getModel(uriOf(path))) monaco.editor.createModel(agent[path] ?? '', languageOf(path), uriOf(path));
  await nextTask();
  void monaco.editor.colorize('', 'plaintext', {});
  await nextFrame();
  const pixelRatio = PixelRatio.getInstance(window).value;
  FontMeasurements.readFontInfo(window, createBareFontInfoFromRawSettings({ fontSize: settings.fontSize }, pixelRatio));
  await nextTask();
}

/**
 * Vim's or emacs's keys on the editor while chosen in Settings; their package is imported the
 * first time (monaco/keybindings.ts). Going back to the standard keys disposes the mode.
 */
function useKeybindings(editor: MonacoEditor | null, mode: Keybindings, status: HTMLElement | null): void {
  useEffect(() => {
    if (!editor || !status || mode === 'standard') return;
    let stopped = false;
    let running: { dispose(): void } | undefined;
    void import('./monaco/keybindings.ts')
      .then(({ startKeybindings }) => (stopped ? undefined : startKeybindings(mode, editor, status)))
      .then((started) => {
        if (stopped) started?.dispose();
        else {
          running = started;
          // The status bar shows the chosen mode at once; this says its keys are on the editor (the
          // package loads first), which is what a key pressed at once needs.
          status.dataset.started = mode;
        }
      })
      .catch((error: unknown) =>
        page().notify({
          tone: 'error',
          text: `The ${mode} keybindings did not load (${error instanceof Error ? error.message : String(error)}); the editor keeps its standard keys.`,
        }),
      );
    return () => {
      stopped = true;
      running?.dispose();
      delete status.dataset.started;
    };
  }, [editor, mode, status]);
}

export interface CodeEditorProps {
  agent: Record<string, string>;
  files: string[];
  current: string;
  diagnostics: Diagnostic[];
  /** A problem the user picked in the list; `onJumped` is called once the cursor is on it. */
  jump: Diagnostic | null;
  onJumped: () => void;
  /** How many columns fit (the layout promises at least 60 at 1024 px wide). */
  onColumns: (columns: number) => void;
}

export default function CodeEditor({ agent, files, current, diagnostics, jump, onJumped, onColumns }: CodeEditorProps) {
  const setFile = useScenario((s) => s.setFile);
  const theme = useUi((s) => s.theme);
  const settings = useUi((s) => s.settings);
  // State, not a ref: a problem picked while Monaco was still loading is jumped to once it mounts.
  const [editor, setEditor] = useState<MonacoEditor | null>(null);
  // Bumped once a replaced file's text is in the editor, so its markers are placed on the new text.
  const [, setApplied] = useState(0);
  const applied = useCallback(() => setApplied((n) => n + 1), []);
  // Kept across renders: @monaco-editor/react calls updateOptions whenever the object is a new
  // one, and Monaco then clones and migrates every option (its cost: docs/decisions/ui.md).
  const options = useMemo(
    () => ({
      minimap: { enabled: settings.minimap },
      fontSize: settings.fontSize,
      scrollBeyondLastLine: false,
      tabSize: 4,
      automaticLayout: true,
      wordWrap: settings.wordWrap ? ('on' as const) : ('off' as const),
      renderLineHighlight: 'line' as const,
      fixedOverflowWidgets: true,
      lineNumbersMinChars: 3,
      // Monaco's Linux default dims the last line's number when the file ends with a newline, to
      // 0.4 of the line-number colour: under the contrast axe and WCAG ask for.
      renderFinalNewline: 'on' as const,
      ariaLabel: `Editor for ${current}. Press Ctrl+M to make Tab move the focus out.`,
    }),
    [settings.minimap, settings.fontSize, settings.wordWrap, current],
  );
  const onChange = useCallback((text: string | undefined) => setFile(current, text ?? ''), [setFile, current]);
  useMarkers(diagnostics, files);
  useModelsInSync(editor, agent, current, applied);
  useJump(editor, jump, current, onJumped);
  const [status, setStatus] = useState<HTMLDivElement | null>(null);
  useKeybindings(editor, settings.keybindings, status);

  return (
    <div className="code-editor">
      <div className="code-editor-main">
        <Editor
          path={uriOf(current).toString()}
          language={languageOf(current)}
          defaultValue={agent[current] ?? ''}
          theme={theme === 'dark' ? DARK_THEME : 'vs'}
          onChange={onChange}
          onMount={(mounted) => {
            setEditor(mounted);
            const measure = () => onColumns(mounted.getLayoutInfo().viewportColumn);
            measure();
            mounted.onDidLayoutChange(measure);
            mounted.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => page().replayNow());
          }}
          options={options}
        />
      </div>
      {settings.keybindings !== 'standard' && (
        <div
          className="keys-status mono"
          ref={setStatus}
          data-testid="keys-status"
          data-mode={settings.keybindings}
          role="status"
          aria-label={`${settings.keybindings} status`}
        />
      )}
    </div>
  );
}
