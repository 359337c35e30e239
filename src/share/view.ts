// What a link says about the view, beside the scenario: `#s=1.…&step=12&view=cache&zoom=fit&region=codebase&entry=3`.
// Each part is optional; a link without them (every link made before they existed) opens as it
// always did: step 1 of the Window view. The page, `lev share encode` and the lessons of the
// examples use this one vocabulary.
import { itemAt } from '../engine/page.ts';

/** The timeline's chart views, by their tab ids. */
export const CHART_VIEWS = ['window', 'regions', 'cache', 'flat'] as const;
export type ChartView = (typeof CHART_VIEWS)[number];

/**
 * The charts' token axis: `fit` tops it at the data, `window` at the model's window, `auto` fits
 * when the data use a small share of the window (FIT_BELOW_SHARE) and shows the window otherwise.
 */
export const ZOOMS = ['auto', 'fit', 'window'] as const;
export type Zoom = (typeof ZOOMS)[number];

/** What a link holds of the view. `step` counts from 1, as the page numbers steps. */
export interface ViewState {
  step?: number;
  view?: ChartView;
  zoom?: Zoom;
  /** The region the inspector shows. */
  region?: string;
  /** The entry opened in that region (its index, as the inspector numbers entries). */
  entry?: number;
}

/** The parts, in the order they are written. */
const KEYS = ['step', 'view', 'zoom', 'region', 'entry'] as const;

/** `&step=12&view=cache…`: the parts of `state` that are set, to follow the scenario's `s=` part. */
export function viewParams(state: ViewState): string {
  let out = '';
  for (const key of KEYS) {
    const value = state[key];
    if (value !== undefined) out += `&${key}=${encodeURIComponent(String(value))}`;
  }
  return out;
}

export type ViewParse = { view: ViewState; problems: string[] };

/**
 * The view parts of a fragment or URL (other parts, such as `s=` or `embed`, are skipped). A part
 * whose value is not allowed is left out, and a problem says which and what is allowed, so a link
 * with a mistyped view still opens its scenario.
 */
export function parseViewParams(fragmentOrUrl: string): ViewParse {
  const hash = fragmentOrUrl.indexOf('#');
  const fragment = hash >= 0 ? fragmentOrUrl.slice(hash + 1) : fragmentOrUrl;
  const view: ViewState = {};
  const problems: string[] = [];
  for (const part of fragment.split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq);
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      problems.push(`${key}: not a valid URL-encoded value`);
      continue;
    }
    const problem = setPart(view, key, value);
    if (problem) problems.push(problem);
  }
  return { view, problems };
}

function setPart(view: ViewState, key: string, value: string): string | null {
  switch (key) {
    case 'step': {
      const step = wholeNumber(value);
      if (step === null || step < 1) return `step=${value}: expected a step number from 1`;
      view.step = step;
      return null;
    }
    case 'view':
      if (!isChartView(value)) return `view=${value}: expected one of ${CHART_VIEWS.join(', ')}`;
      view.view = value;
      return null;
    case 'zoom':
      if (!isZoom(value)) return `zoom=${value}: expected one of ${ZOOMS.join(', ')}`;
      view.zoom = value;
      return null;
    case 'region':
      if (value === '') return 'region=: expected a region name';
      view.region = value;
      return null;
    case 'entry': {
      const entry = wholeNumber(value);
      if (entry === null) return `entry=${value}: expected an entry index from 0`;
      view.entry = entry;
      return null;
    }
    default:
      return null;
  }
}

function wholeNumber(text: string): number | null {
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

export const isChartView = (value: string): value is ChartView => (CHART_VIEWS as readonly string[]).includes(value);
export const isZoom = (value: string): value is Zoom => (ZOOMS as readonly string[]).includes(value);

/** The scenario's part of a fragment (`#s=1.…`), without the view's parts. */
export function scenarioPart(fragment: string): string {
  const hash = fragment.startsWith('#') ? '#' : '';
  const parts = (hash ? fragment.slice(1) : fragment)
    .split('&')
    .filter((part) => !KEYS.some((key) => part.startsWith(`${key}=`)));
  return hash + parts.join('&');
}

/** Below this share of the window the `auto` zoom fits the data (four of the nine examples use under a quarter). */
export const FIT_BELOW_SHARE = 0.5;

/** Whether the token axis fits the data, for a zoom and the data's peak against the window. */
export function fitsData(zoom: Zoom, peak: number, window: number): boolean {
  return zoom === 'fit' || (zoom === 'auto' && peak < window * FIT_BELOW_SHARE);
}

/** Routes that name something other than a scenario: an example at its lesson, a section of the Guide. */
export type Route = { kind: 'example'; id: string } | { kind: 'guide'; section: string };

/** `#example/<id>` or `#guide/<section>`; null for anything else (a scenario link, nothing). */
export function parseRoute(fragmentOrUrl: string): Route | null {
  const hash = fragmentOrUrl.indexOf('#');
  const fragment = hash >= 0 ? fragmentOrUrl.slice(hash + 1) : fragmentOrUrl;
  const match = /^(example|guide)\/([^&/]+)(?:&|$)/.exec(fragment);
  if (!match) return null;
  let name: string;
  try {
    name = decodeURIComponent(itemAt(match, 2));
  } catch {
    return null;
  }
  return match[1] === 'example' ? { kind: 'example', id: name } : { kind: 'guide', section: name };
}
