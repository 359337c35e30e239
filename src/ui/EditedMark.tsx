// "edited" beside the scenario's name when what is on screen is an example or a shared link that
// has been changed: the name alone ("coding-agent") does not say it is no longer the example.
import { findExample } from '../scenarios/examples.ts';
import { useLibrary } from './page.ts';

export function EditedMark() {
  const origin = useLibrary((s) => s.origin);
  const entryId = useLibrary((s) => s.entryId);
  const revision = useLibrary((s) => s.entries.find((e) => e.id === s.entryId)?.revision ?? 1);
  // An example becomes an entry only when its first edit is saved; a link's entry is saved over
  // (revision 2 on) once edited. Either shows 300 ms after the edit, when it is saved.
  const edited = origin.kind === 'example' ? entryId !== null : origin.kind === 'link' ? revision > 1 : false;
  if (!edited) return null;
  const from =
    origin.kind === 'example'
      ? `the example "${findExample(origin.exampleId)?.title ?? origin.exampleId}"`
      : 'the shared link it was opened from';
  return (
    <span
      className="badge"
      data-testid="edited-mark"
      title={`Changed from ${from}; the original is still in ${origin.kind === 'example' ? 'Examples' : 'the link'}.`}
    >
      edited
    </span>
  );
}
