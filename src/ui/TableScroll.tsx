// A table that is wider than its pane scrolls sideways in a box of its own, right under the table
// (not at the foot of a tall pane), with a shadow on the side that has more: overlay scrollbars
// (macOS, phones) show nothing until scrolled, and the shadow says there is more either way. While
// it overflows, the box is a named, focusable region, so the keyboard can scroll it too; while it
// fits it is neither, and adds no tab stop.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function TableScroll({
  label,
  children,
  className = '',
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      className={`table-scroll ${className}`}
      data-overflows={overflows ? 'yes' : 'no'}
      tabIndex={overflows ? 0 : undefined}
      role={overflows ? 'region' : undefined}
      aria-label={overflows ? label : undefined}
    >
      {children}
    </div>
  );
}
