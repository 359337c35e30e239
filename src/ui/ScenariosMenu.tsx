// The library: every saved scenario with when it changed and its versions; open, rename,
// duplicate, delete (undo until the next delete), and "New blank" / "Reset this example".
import { useState } from 'react';
import { MAX_VERSIONS, VERSION_INTERVAL_MS, type EntrySummary, type Origin } from '../state/library.ts';
import { findExample } from '../scenarios/examples.ts';
import { exportScenario } from './backup.ts';
import { Modal } from './Modal.tsx';
import { page, useLibrary } from './page.ts';

const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function describeOrigin(origin: Origin): string {
  switch (origin.kind) {
    case 'example':
      return `from the example ${origin.exampleId}`;
    case 'link':
      return 'from a shared link';
    case 'import':
      return `imported from ${origin.file}`;
    case 'blank':
      return 'started blank';
    case 'copy':
      return `a copy of ${origin.of}`;
    case 'earlier-work':
      return 'work saved by an earlier version of the page';
  }
}

function EntryRow({ entry, open, onOpened }: { entry: EntrySummary; open: boolean; onOpened: () => void }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const [showVersions, setShowVersions] = useState(false);
  const commitRename = () => {
    if (renaming !== null) void page().renameEntry(entry.id, renaming);
    setRenaming(null);
  };
  return (
    <li className="card" data-entry={entry.name} aria-current={open ? 'true' : undefined}>
      <div className="row">
        {renaming === null ? (
          <b>{entry.name}</b>
        ) : (
          <input
            autoFocus
            aria-label="New name"
            value={renaming}
            onChange={(e) => setRenaming(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitRename();
              if (e.key === 'Escape') {
                e.stopPropagation();
                setRenaming(null);
              }
            }}
            onBlur={commitRename}
          />
        )}
        {open && <span className="muted">(open)</span>}
        <span className="spacer" />
        <button
          className="primary"
          disabled={open}
          onClick={() => {
            void page().openEntry(entry.id);
            onOpened();
          }}
        >
          Open
        </button>
        <button onClick={() => setRenaming(entry.name)}>Rename</button>
        <button onClick={() => void page().duplicateEntry(entry.id)}>Duplicate</button>
        <button
          disabled={open}
          title={open ? 'This is the scenario on screen: open another one to delete it' : undefined}
          onClick={() => void page().deleteEntry(entry.id)}
        >
          Delete
        </button>
      </div>
      <p>
        Changed {when(entry.changedAt)} · {describeOrigin(entry.origin)} ·{' '}
        {entry.versions.length === 0 ? (
          // An automatic version is kept at most every 5 minutes of editing, so a new entry has none yet.
          <span
            title={`A version is kept every ${VERSION_INTERVAL_MS / 60_000} minutes of editing, and each time you press Ctrl+S`}
            data-testid="no-versions"
          >
            no earlier version yet (one is kept every {VERSION_INTERVAL_MS / 60_000} minutes of editing, or with Ctrl+S)
          </span>
        ) : (
          <button className="link" aria-expanded={showVersions} onClick={() => setShowVersions(!showVersions)}>
            {entry.versions.length === 1 ? '1 earlier version' : `${entry.versions.length} earlier versions`}
          </button>
        )}
      </p>
      {showVersions && (
        <ul className="versions" aria-label={`Versions of ${entry.name}`}>
          {entry.versions.map((v) => (
            <li key={v.savedAt} className="row">
              <span>{when(v.savedAt)}</span>
              <button
                onClick={() => {
                  void page().restoreVersion(entry.id, v.savedAt);
                  onOpened();
                }}
              >
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export default function ScenariosMenu({ onClose }: { onClose: () => void }) {
  const { entries, entryId, origin, trash, persistent, storageProblem } = useLibrary();
  const example = origin.kind === 'example' ? findExample(origin.exampleId) : undefined;
  return (
    <Modal title="Scenarios" onClose={onClose} testId="scenarios">
      {!persistent && (
        <p className="error-text" role="alert">
          This browser will not store your work ({storageProblem}): it lasts until this tab is closed or reloaded.{' '}
          <button onClick={exportScenario}>Export</button>
        </p>
      )}
      {entryId === null && (
        <p className="muted" style={{ marginTop: 0 }} data-testid="unsaved-open">
          On screen: {example ? `the example "${example.title}"` : 'a blank scenario'}, unchanged. It joins this list
          once you change it (or press Ctrl+S).
        </p>
      )}
      <div className="row" style={{ marginBottom: 8 }}>
        <button
          onClick={() => {
            void page().newBlank();
            onClose();
          }}
        >
          New blank
        </button>
        <button
          disabled={!example}
          title={
            example
              ? `Open ${example.title} as it ships; your edited copy stays here`
              : 'The open scenario is not an example'
          }
          onClick={() => {
            void page().resetExample();
            onClose();
          }}
        >
          Reset this example
        </button>
        <span className="spacer" />
        {trash && (
          <button data-testid="undo-delete" onClick={() => void page().undoDelete()}>
            Undo delete of "{trash.name}"
          </button>
        )}
      </div>
      {entries.length === 0 ? (
        <p className="muted">Nothing saved yet. Every scenario you change, open from a link or import is kept here.</p>
      ) : (
        <ul className="library">
          {entries.map((e) => (
            <EntryRow key={e.id} entry={e} open={e.id === entryId} onOpened={onClose} />
          ))}
        </ul>
      )}
      <p className="muted">
        Kept in this browser (IndexedDB), with up to {MAX_VERSIONS} earlier versions each. Another tab editing the same
        scenario gets its own copy.
      </p>
    </Modal>
  );
}
