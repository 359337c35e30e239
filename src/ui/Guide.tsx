// docs/guide.md shown in the app (the built site has no docs/ folder). Markdown is turned into
// React elements line by line; nothing is ever inserted as HTML.
import { Fragment, type ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import { TableScroll } from './TableScroll.tsx';
import { EXAMPLES } from '../scenarios/examples.ts';
import { page } from './page.ts';

const guides = import.meta.glob('../../docs/guide.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const GUIDE = Object.values(guides)[0] ?? null;

function inline(text: string): ReactNode[] {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/g).map((part, k) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={k}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <b key={k}>{inline(part.slice(2, -2))}</b>;
    return <Fragment key={k}>{part.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')}</Fragment>;
  });
}

function cells(row: string): string[] {
  return row.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

function Table({ rows }: { rows: string[] }) {
  const [head, , ...body] = rows;
  return (
    <TableScroll label="Table, scrolls sideways" className="wraps"><table>
      <thead><tr>{cells(head).map((c, k) => <th key={k}>{inline(c)}</th>)}</tr></thead>
      <tbody>{body.map((r, j) => <tr key={j}>{cells(r).map((c, k) => <td key={k}>{inline(c)}</td>)}</tr>)}</tbody>
    </table></TableScroll>
  );
}

/** A heading naming an example, like "First look (`flat-vs-regions`)", gets an Open button. */
function exampleIn(text: string): string | undefined {
  return EXAMPLES.find((e) => text.includes(`\`${e.id}\``))?.id;
}

function render(markdown: string, open: (id: string) => void): ReactNode[] {
  const out: ReactNode[] = [];
  const lines = markdown.split('\n');
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      out.push(<pre key={k++}>{code.join('\n')}</pre>);
    } else if (/^#{1,4} /.test(line)) {
      const level = line.indexOf(' ');
      const example = exampleIn(line);
      const text = <>{inline(line.slice(level + 1))}{example && <> <button onClick={() => open(example)}>Open this example</button></>}</>;
      out.push(level === 1 ? <h1 key={k++}>{text}</h1> : level === 2 ? <h2 key={k++}>{text}</h2> : <h3 key={k++}>{text}</h3>);
    } else if (line.trim().startsWith('|')) {
      const rows: string[] = [];
      for (; i < lines.length && lines[i].trim().startsWith('|'); i++) rows.push(lines[i]);
      i--;
      out.push(<Table key={k++} rows={rows} />);
    } else if (/^\s*[-*] /.test(line)) {
      const items: string[] = [];
      for (; i < lines.length; i++) {
        if (/^\s*[-*] /.test(lines[i])) items.push(lines[i].replace(/^\s*[-*] /, ''));
        else if (/^\s{2,}\S/.test(lines[i]) && items.length) items[items.length - 1] += ` ${lines[i].trim()}`;
        else break;
      }
      i--;
      out.push(<ul key={k++}>{items.map((t, j) => <li key={j}>{inline(t)}</li>)}</ul>);
    } else if (line.trim() !== '') {
      const para: string[] = [line];
      for (i++; i < lines.length && lines[i].trim() !== '' && !/^(#|```|\s*[-*] |\s*\|)/.test(lines[i]); i++) para.push(lines[i]);
      i--;
      out.push(<p key={k++}>{inline(para.join(' '))}</p>);
    }
  }
  return out;
}

export function GuideDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Guide" onClose={onClose} testId="guide">
      <div className="guide">
        {GUIDE ? render(GUIDE, (id) => { void page().openExample(id); onClose(); }) : (
          <p>The guide (docs/guide.md) is not part of this build. In short: edit the blueprint on the left, pick traffic in the middle, and read the timeline on the right; scrub to any step to see every region and the exact request below.</p>
        )}
      </div>
    </Modal>
  );
}
