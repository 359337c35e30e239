// The glyph of each kind of change: its own shape, drawn in the text colour, so a marker stands
// out from every region fill in both themes and reads without colour at all.
import type { MarkerKind } from './chartData.ts';

const SHAPES: Record<MarkerKind, { d: string; fill: boolean }> = {
  evict: { d: 'M1,2 L11,2 L6,11 Z', fill: true },
  compact: { d: 'M6,0.5 L11.5,6 L6,11.5 L0.5,6 Z', fill: true },
  reject: { d: 'M2,2 L10,10 M10,2 L2,10', fill: false },
  strip: { d: 'M2,2 H10 V10 H2 Z', fill: false },
  cascade: { d: 'M1,1 L6,5.5 L11,1 M1,6 L6,10.5 L11,6', fill: false },
  stage: { d: 'M2.5,0.5 V11.5 M2.5,1 H10 L8,4 L10,7 H2.5', fill: false },
  delete: { d: 'M6,1.5 A4.5,4.5 0 1 1 5.99,1.5 Z', fill: false },
  clear: { d: 'M6,1.5 A4.5,4.5 0 1 1 5.99,1.5 Z', fill: true },
  replace: { d: 'M1,4 H9 L7,2 M11,8 H3 L5,10', fill: false },
  truncate: { d: 'M1,6 H11 M1,2.5 V9.5 M11,2.5 V9.5', fill: false },
};

export const MARKER_LABELS: Record<MarkerKind, string> = {
  evict: 'eviction',
  compact: 'compaction',
  reject: 'rejected write',
  strip: 'stripped tool block',
  cascade: 'window cascade',
  stage: 'stage change',
  delete: 'context_delete',
  clear: 'region cleared',
  replace: 'replaced entry',
  truncate: 'truncated result',
};

export function MarkerGlyph({ kind, size = 12 }: { kind: MarkerKind; size?: number }) {
  const shape = SHAPES[kind];
  return (
    <svg width={size} height={size} viewBox="0 0 12 12" aria-hidden className={`glyph glyph-${kind}`}>
      <path
        d={shape.d}
        fill={shape.fill ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={shape.fill ? 0.8 : 1.8}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
