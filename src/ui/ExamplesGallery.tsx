// The built-in examples: a title, what to watch, and one click to open.
import { EXAMPLES } from '../scenarios/examples.ts';
import { page } from './page.ts';
import { Modal } from './Modal.tsx';

export default function ExamplesGallery({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Examples" onClose={onClose} testId="examples">
      <p className="muted" style={{ marginTop: 0 }}>
        Each example shows one idea of the spec. Opening one never loses your work: if you changed what is open, it is
        saved in Scenarios first.
      </p>
      <div className="gallery">
        {EXAMPLES.map((e) => (
          <div key={e.id} className="card" data-example={e.id}>
            <div className="row">
              <h3 style={{ margin: 0 }}>{e.title}</h3>
              <span className="spacer" />
              <button
                className="primary"
                onClick={() => {
                  void page().openExample(e.id);
                  onClose();
                }}
              >
                Open
              </button>
            </div>
            <p>{e.summary}</p>
          </div>
        ))}
      </div>
    </Modal>
  );
}
