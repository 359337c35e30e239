// `lev share encode SCENARIO.json` prints the URL fragment that holds the scenario;
// `lev share decode FRAGMENT|URL` prints the scenario JSON a link holds. Same code as the page;
// --step, --view, --zoom and --region add the view the page opens the link at (share/view.ts).
// Exit 0 on success, 1 when the scenario or link is bad, 2 on bad usage.
import { fmt } from '../engine/index.ts';
import { decodeFragment, encodeScenario, isLongLink, LONG_LINK_CHARS, scenarioUrl } from '../share/index.ts';
import { CHART_VIEWS, ZOOMS, isChartView, isZoom, viewParams, type ViewState } from '../share/view.ts';
import {
  EXIT_FINDINGS,
  EXIT_OK,
  inputFinding,
  parseArgs,
  readText,
  SCENARIO_INPUT,
  unknownFlag,
  usageError,
  type Command,
} from './io.ts';

export const USAGE = `usage: lev share encode SCENARIO.json [--url PAGE_URL] [--step N] [--view ${CHART_VIEWS.join('|')}]
                        [--zoom ${ZOOMS.join('|')}] [--region NAME] [--json]   (SCENARIO "-" reads stdin)
       lev share decode FRAGMENT|URL [--json]   (quote URLs: the shell treats # and & specially)

  --step N     open the link at step N (from 1, as the page numbers steps)
  --view V     open it on that chart: ${CHART_VIEWS.join(', ')} (the page's tabs)
  --zoom Z     the token axis: ${ZOOMS.join(', ')}
  --region R   the region the inspector shows`;

/** The view flags of \`encode\`, each checked; a bad value is a usage error naming the flag and what it takes. */
const VIEW_FLAGS = ['step', 'view', 'zoom', 'region'] as const;

function viewOfFlags(flags: Map<string, string | true>): { view: ViewState } | { error: string } {
  const view: ViewState = {};
  for (const name of VIEW_FLAGS) {
    const value = flags.get(name);
    if (value === undefined) continue;
    if (value === true) return { error: `--${name} needs a value` };
    if (name === 'step') {
      if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
        return { error: `--step ${value}: expected a step number from 1 (the page numbers steps from 1)` };
      view.step = Number(value);
    } else if (name === 'view') {
      if (!isChartView(value)) return { error: `--view ${value}: expected one of ${CHART_VIEWS.join(', ')}` };
      view.view = value;
    } else if (name === 'zoom') {
      if (!isZoom(value)) return { error: `--zoom ${value}: expected one of ${ZOOMS.join(', ')}` };
      view.zoom = value;
    } else {
      if (value === '') return { error: '--region needs a region name' };
      view.region = value;
    }
  }
  return { view };
}

export const run: Command = async (args) => {
  const parsed = parseArgs(args, ['url', ...VIEW_FLAGS]);
  const [action, target, ...extra] = parsed.positional;
  if (action !== 'encode' && action !== 'decode') {
    return usageError(`share: ${action ? `unknown action "${action}"` : 'expected encode or decode'}\n${USAGE}`);
  }
  const bad = unknownFlag(parsed, action === 'encode' ? ['json', 'url', ...VIEW_FLAGS] : ['json']);
  if (bad) return usageError(`share ${action}: unknown option --${bad}\n${USAGE}`);
  if (target === undefined || extra.length > 0) {
    return usageError(
      `share ${action}: expected one ${action === 'encode' ? 'SCENARIO file' : 'FRAGMENT or URL'}\n${USAGE}`,
    );
  }
  const json = parsed.flags.has('json');
  if (action === 'decode') return decode(target, json);
  const url = parsed.flags.get('url');
  if (url === true) return usageError(`share encode: --url needs the page address\n${USAGE}`);
  const view = viewOfFlags(parsed.flags);
  if ('error' in view) return usageError(`share encode: ${view.error}\n${USAGE}`);
  return encode(target, json, url, view.view);
};

function decode(link: string, json: boolean): number {
  const result = decodeFragment(link);
  if (json) console.log(JSON.stringify(result));
  else if (result.ok) console.log(JSON.stringify(result.scenario, null, 2));
  else console.error(`lev: share decode: ${result.error}`);
  return result.ok ? EXIT_OK : EXIT_FINDINGS;
}

function encode(path: string, json: boolean, pageUrl: string | undefined, view: ViewState): number {
  const failure = (message: string): number => {
    if (json) console.log(JSON.stringify({ ok: false, error: message }));
    else console.error(`lev: share encode: ${message}`);
    return EXIT_FINDINGS;
  };
  let source: string;
  try {
    source = readText(path === '-' ? 0 : path, SCENARIO_INPUT);
  } catch (err) {
    const finding = inputFinding(err, path === '-' ? 'stdin' : path, 'scenario-too-large');
    if (finding) return failure(finding.message);
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    return usageError(`share encode: ${path}: ${reason}`);
  }
  let scenario: unknown;
  try {
    scenario = JSON.parse(source);
  } catch (err) {
    return failure(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  let link: string;
  try {
    link =
      (pageUrl === undefined ? encodeScenario(scenario as never) : scenarioUrl(pageUrl, scenario as never)) +
      viewParams(view);
  } catch (err) {
    return failure(`${path}: ${(err as Error).message}`);
  }
  if (json) console.log(JSON.stringify({ ok: true, link, characters: link.length }));
  else console.log(link);
  if (isLongLink(link)) {
    console.error(
      `lev: share encode: note: the link is ${fmt(link.length)} characters; chat apps such as Discord cut messages at ${fmt(LONG_LINK_CHARS)}. Share the JSON file instead, or use a generator rather than explicit traffic.`,
    );
  }
  return EXIT_OK;
}
