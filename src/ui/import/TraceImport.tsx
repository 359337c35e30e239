// Importing an agent's real run: the dialog (progress, what was imported and skipped, the
// tool-name table, which blueprint to replay through) and dropping a file anywhere on the page.
import { useEffect, useState } from 'react';
import { describeReport, FORMAT_LABELS, FORMAT_NAMES, type FormatName } from '../../import/index.ts';
import { openImported } from '../page.ts';
import { Modal } from '../Modal.tsx';
import { TableScroll } from '../TableScroll.tsx';
import { closeImport, importFile, useTraceImport } from './importer.ts';
import type { ScenarioFileResult } from '../../worker/trace-protocol.ts';
import { itemAt } from '../../engine/page.ts';

/** Set by the header, which owns opening a scenario file (its messages). */
type ScenarioOpener = (file: File, result: ScenarioFileResult) => void;
let openScenarioFile: ScenarioOpener = () => undefined;
export function setScenarioOpener(open: ScenarioOpener): void {
  openScenarioFile = open;
}
export const importAnyFile = (file: File) => importFile(file, openScenarioFile);

function ToolMapTable() {
  const state = useTraceImport((s) => s.state);
  const toolMap = useTraceImport((s) => s.toolMap);
  if (state.status !== 'ready' || state.report.tools.length === 0) return null;
  const rename = (name: string, to: string) =>
    useTraceImport.setState({ toolMap: { ...toolMap, [name]: to.trim() || name } });
  return (
    <TableScroll label="Tool names, scrolls sideways">
      <table data-testid="tool-map">
        <thead>
          <tr>
            <th>Tool in the trace</th>
            <th className="num">calls</th>
            <th>Blueprint tool</th>
          </tr>
        </thead>
        <tbody>
          {state.report.tools.map((t) => (
            <tr key={t.name}>
              <td>
                <code>{t.name}</code>
              </td>
              <td className="num">{t.calls}</td>
              <td>
                <input
                  aria-label={`blueprint name for ${t.name}`}
                  defaultValue={toolMap[t.name] ?? t.name}
                  onChange={(e) => rename(t.name, e.target.value)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** When the content matches no format on its own: the user says which one it is, and it is read as that. */
function FormatChoice({ onImport }: { onImport: () => void }) {
  const [format, setFormat] = useState<FormatName>(itemAt(FORMAT_NAMES, 0));
  return (
    <div className="row" data-testid="import-format-choice">
      <label>
        If it is one of these, choose which and import it again:{' '}
        <select aria-label="trace format" value={format} onChange={(e) => setFormat(e.target.value as FormatName)}>
          {FORMAT_NAMES.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </label>{' '}
      <button
        className="primary"
        data-testid="import-as-format"
        onClick={() => {
          useTraceImport.setState({ format });
          onImport();
        }}
      >
        Import as this format
      </button>
    </div>
  );
}

function ImportDialog() {
  const state = useTraceImport((s) => s.state);
  const blueprint = useTraceImport((s) => s.blueprint);
  if (state.status === 'idle') return null;
  const reimport = () => importAnyFile(state.file);
  return (
    <Modal title={`Import ${state.file.name}`} onClose={closeImport} testId="trace-import">
      {state.status === 'working' && (
        <div data-testid="import-progress">
          <progress max={1} value={state.share} style={{ width: '100%' }} />
          <div className="muted">Reading and converting in the background… {Math.round(state.share * 100)}%</div>
        </div>
      )}
      {state.status === 'error' && (
        <p className="error-text" data-testid="import-error">
          {state.message.replace(/\.$/, '')}. Nothing was changed.
        </p>
      )}
      {state.status === 'error' && state.unknownFormat && <FormatChoice onImport={reimport} />}
      {state.status === 'ready' && (
        <>
          <ul data-testid="import-report">
            {describeReport(state.report).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="muted">
            The trace stays in this browser: nothing is uploaded. A share link of it offers a shape-only form without
            the content.
          </p>
          <ToolMapTable />
          <fieldset>
            <legend>Replay it through</legend>
            <label>
              <input
                type="radio"
                checked={blueprint === 'editor'}
                onChange={() => useTraceImport.setState({ blueprint: 'editor' })}
              />{' '}
              the blueprint in the editor
            </label>{' '}
            <label>
              <input
                type="radio"
                checked={blueprint === 'starter'}
                onChange={() => useTraceImport.setState({ blueprint: 'starter' })}
              />{' '}
              a starting layout for imported runs
            </label>
          </fieldset>
          <div className="row" style={{ marginTop: 8 }}>
            <button onClick={reimport} data-testid="import-apply">
              Apply the tool names and blueprint
            </button>
            <span className="spacer" />
            <button
              className="primary"
              data-testid="import-open"
              onClick={() => {
                void openImported(state.scenario, state.file.name);
                closeImport();
              }}
            >
              Open the run
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

/** A file dragged anywhere over the page is offered for import; dropping it imports it. */
function DropTarget() {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const over = (e: DragEvent) => {
      if (hasFiles(e)) {
        e.preventDefault();
        setDragging(true);
      }
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) importAnyFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!dragging) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      Drop an agent's run (a Claude Code, Codex, Gemini CLI or Cline session, a SWE-agent, mini-swe-agent or OpenHands
      trajectory, a claude-trace log, an API body) or a scenario to import it
    </div>
  );
}

export function TraceImport() {
  return (
    <>
      <DropTarget />
      <ImportDialog />
    </>
  );
}
