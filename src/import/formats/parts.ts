// Content given as a string, null, or a list of typed parts: the text parts joined, every other
// part counted as skipped under the name the import report uses.
import { arrayAt, at, objectAt, stringAt } from '../json.ts';
import { countSkipped, ImportError, type Transcript, type Where } from '../trace.ts';

export interface PartKinds {
  /** Part types whose text is kept (a `refusal` part's text is in its `refusal` field). */
  text: ReadonlySet<string>;
  /** Other part types, by the name the report counts them under (default: the type itself). */
  skipped: Readonly<Record<string, string>>;
}

export function partsText(content: unknown, where: Where, transcript: Transcript, kinds: PartKinds): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  arrayAt(content, where, 'a string or an array of content parts').forEach((raw, i) => {
    const here = at(where, i);
    const part = objectAt(raw, here, 'a content part object with a "type"');
    const type = stringAt(
      part.type,
      at(here, 'type'),
      `a part type such as ${[...kinds.text]
        .slice(0, 2)
        .map((t) => `"${t}"`)
        .join(' or ')}`,
    );
    if (!kinds.text.has(type)) {
      countSkipped(transcript, kinds.skipped[type] ?? type);
      return;
    }
    const field = type === 'refusal' ? 'refusal' : 'text';
    if (typeof part[field] !== 'string')
      throw new ImportError(at(here, field), 'missing', "the part's text as a string");
    texts.push(part[field]);
  });
  return texts.join('\n');
}
