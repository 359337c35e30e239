// docs/guide.md shown in the app (the built site has no docs/ folder), in a side panel beside the
// workspace, so its "Watch / Try" steps can be followed in the app while it stays open. Markdown is
// turned into React elements line by line; nothing is ever inserted as HTML.
import { Fragment, useEffect, useRef, type ReactNode } from 'react';
import { TableScroll } from './TableScroll.tsx';
import { EXAMPLES } from '../scenarios/examples.ts';
import { page, useUi } from './page.ts';
import './guide.css';

const guides = import.meta.glob('../../docs/guide.md', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;
const GUIDE = Object.values(guides)[0] ?? null;

function inline(text: string): ReactNode[] {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/g).map((part, k) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={k}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3)
      return <b key={k}>{inline(part.slice(2, -2))}</b>;
    return <Fragment key={k}>{part.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')}</Fragment>;
  });
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

function Table({ rows }: { rows: string[] }) {
  const [head = '', , ...body] = rows;
  return (
    <TableScroll label="Table, scrolls sideways" className="wraps">
      <table>
        <thead>
          <tr>
            {cells(head).map((c, k) => (
              <th key={k}>{inline(c)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((r, j) => (
            <tr key={j}>
              {cells(r).map((c, k) => (
                <td key={k}>{inline(c)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A heading naming an example, like "First look (`flat-vs-regions`)", gets an Open button. */
function exampleIn(text: string): string | undefined {
  return EXAMPLES.find((e) => text.includes(`\`${e.id}\``))?.id;
}

/** A heading's address in `#guide/<section>`: its words, lower case, joined by hyphens (backticks and punctuation dropped). */
export function guideSlug(heading: string): string {
  return heading
    .replace(/\(`[^`]*`\)/g, '')
    .replace(/[^A-Za-z0-9_ -]+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-');
}

/** The sections of the guide that have addresses, in order. */
export function guideSections(markdown: string | null = GUIDE): string[] {
  return (markdown ?? '')
    .split('\n')
    .filter((l) => /^#{2,3} /.test(l))
    .map((l) => guideSlug(l.replace(/^#+ /, '')));
}

function SectionLink({ slug }: { slug: string }) {
  const copy = () => {
    const { origin, pathname, search } = window.location;
    void navigator.clipboard?.writeText(`${origin}${pathname}${search}#guide/${slug}`).catch(() => undefined);
  };
  return (
    <button
      className="link section-link"
      title={`Copy this section's link (#guide/${slug})`}
      aria-label="Copy this section's link"
      onClick={copy}
    >
      #
    </button>
  );
}

function render(markdown: string, open: (id: string) => void): ReactNode[] {
  const out: ReactNode[] = [];
  const lines = markdown.split('\n');
  // Past the last line reads as a blank line, which ends every block.
  const at = (n: number): string => lines[n] ?? '';
  let k = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = at(i);
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !at(i).startsWith('```'); i++) code.push(at(i));
      out.push(<pre key={k++}>{code.join('\n')}</pre>);
    } else if (/^#{1,4} /.test(line)) {
      const level = line.indexOf(' ');
      const example = exampleIn(line);
      const slug = guideSlug(line.slice(level + 1));
      const text = (
        <>
          {inline(line.slice(level + 1))}
          {level > 1 && (
            <>
              {' '}
              <SectionLink slug={slug} />
            </>
          )}
          {example && (
            <>
              {' '}
              <button onClick={() => open(example)}>Open this example</button>
            </>
          )}
        </>
      );
      out.push(
        level === 1 ? (
          <h1 key={k++}>{text}</h1>
        ) : level === 2 ? (
          <h2 key={k++} id={`guide-${slug}`}>
            {text}
          </h2>
        ) : (
          <h3 key={k++} id={`guide-${slug}`}>
            {text}
          </h3>
        ),
      );
    } else if (line.trim().startsWith('|')) {
      const rows: string[] = [];
      for (; i < lines.length && at(i).trim().startsWith('|'); i++) rows.push(at(i));
      i--;
      out.push(<Table key={k++} rows={rows} />);
    } else if (/^\s*[-*] /.test(line)) {
      const items: string[] = [];
      for (; i < lines.length; i++) {
        if (/^\s*[-*] /.test(at(i))) items.push(at(i).replace(/^\s*[-*] /, ''));
        else if (/^\s{2,}\S/.test(at(i)) && items.length) items[items.length - 1] += ` ${at(i).trim()}`;
        else break;
      }
      i--;
      out.push(
        <ul key={k++}>
          {items.map((t, j) => (
            <li key={j}>{inline(t)}</li>
          ))}
        </ul>,
      );
    } else if (line.trim() !== '') {
      const para: string[] = [line];
      for (i++; i < lines.length && at(i).trim() !== '' && !/^(#|```|\s*[-*] |\s*\|)/.test(at(i)); i++)
        para.push(at(i));
      i--;
      out.push(<p key={k++}>{inline(para.join(' '))}</p>);
    }
  }
  return out;
}

/** The heading the reader is at: the last one at or above the top of the scrolled body. */
function sectionAt(body: HTMLElement): string | null {
  const top = body.getBoundingClientRect().top + 8;
  let at: string | null = null;
  for (const heading of body.querySelectorAll<HTMLElement>('h1[id], h2[id], h3[id]')) {
    if (heading.getBoundingClientRect().top > top) break;
    at = heading.id;
  }
  return at;
}

/**
 * The Guide beside the workspace (not over it): the app stays usable while it is open, an example
 * it opens is opened behind it, and closing and reopening it comes back to the section the reader
 * was at. Below 1,200 px wide it lies over the workspace's right side; on a phone it covers the app.
 */
export function GuidePanel() {
  const section = useUi((s) => s.guide.section);
  const body = useRef<HTMLDivElement>(null);
  const close = () => {
    useUi.getState().setGuide({ open: false });
    document.querySelector<HTMLElement>('[data-testid="open-guide"]')?.focus();
  };
  // Back at the section it was closed at (read once, as it opens), with the focus in the text so
  // the keys scroll it.
  useEffect(() => {
    const el = body.current!;
    const at = section ? document.getElementById(section) : null;
    if (at) el.scrollTop = at.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    el.focus({ preventScroll: true });
  }, []);
  // The section is noted as the reader scrolls, a frame at a time.
  useEffect(() => {
    const el = body.current!;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => useUi.getState().setGuide({ section: sectionAt(el) }));
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);
  return (
    <aside
      className="guide-panel"
      aria-labelledby="guide-title"
      data-testid="guide"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
    >
      <div className="panel-head">
        <h2 id="guide-title">Guide</h2>
        <span className="spacer" />
        <button className="icon" aria-label="Close the guide" onClick={close}>
          ✕
        </button>
      </div>
      <div ref={body} className="panel-body guide" tabIndex={0} aria-label="The guide's text" data-testid="guide-body">
        {GUIDE ? (
          render(GUIDE, (id) => {
            void page().openExample(id);
          })
        ) : (
          <p>
            The guide (docs/guide.md) is not part of this build. In short: edit the blueprint on the left, pick traffic
            in the middle, and read the timeline on the right; scrub to any step to see every region and the exact
            request below.
          </p>
        )}
      </div>
    </aside>
  );
}
