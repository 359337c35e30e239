// Renders its children only while they are on (or near) the screen. Charts are the costliest part
// of a new timeline to draw; the ones scrolled out of view wait until they are looked at.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function WhenVisible({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver(([entry]) => entry && setVisible(entry.isIntersecting), {
      rootMargin: '150px 0px',
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} style={{ minHeight: height }}>
      {visible ? children : null}
    </div>
  );
}
