// The built-in examples: a title, what to watch, and one click to open.
import { EXAMPLES, findExample } from '../scenarios/examples.ts';
import { ScenarioSchema } from '../engine/scenario.ts';
import { AGENT_FILE } from '../state/scenario.ts';
import { useScenario } from '../state/store.ts';
import { useUi } from '../state/ui.ts';
import { copyWorkToBackup } from '../state/persist.ts';
import { restoreBackup } from './backup.ts';
import { Modal } from './Modal.tsx';

export function openExample(id: string): void {
  const example = findExample(id);
  if (!example) return;
  copyWorkToBackup();
  useScenario.getState().load(ScenarioSchema.parse(example.scenario));
  const ui = useUi.getState();
  ui.selectFile(AGENT_FILE);
  ui.setStep(0);
  ui.setPlaying(false);
  ui.notify({ tone: 'info', text: `Opened "${example.title}".`, action: { label: 'Undo', run: restoreBackup } });
}

export function ExamplesGallery({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Examples" onClose={onClose} testId="examples">
      <p className="muted" style={{ marginTop: 0 }}>Each example shows one idea of the spec. Opening one replaces what is in the editor (your current work can be restored with Undo).</p>
      <div className="gallery">
        {EXAMPLES.map((e) => (
          <div key={e.id} className="card" data-example={e.id}>
            <div className="row"><h3 style={{ margin: 0 }}>{e.title}</h3><span className="spacer" />
              <button className="primary" onClick={() => { openExample(e.id); onClose(); }}>Open</button>
            </div>
            <p>{e.summary}</p>
          </div>
        ))}
      </div>
    </Modal>
  );
}
