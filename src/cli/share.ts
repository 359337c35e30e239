// `lev share encode SCENARIO.json` prints the URL fragment that holds the scenario;
// `lev share decode FRAGMENT|URL` prints the scenario JSON a link holds. Same code as the page.
// Exit 0 on success, 1 when the scenario or link is bad, 2 on bad usage.
import { fmt } from '../engine/format.ts';
import { decodeFragment, encodeScenario, isLongLink, LONG_LINK_CHARS, scenarioUrl } from '../share/index.ts';
import { EXIT_FINDINGS, EXIT_OK, inputFinding, parseArgs, readText, SCENARIO_INPUT, unknownFlag, usageError, type Command } from './io.ts';

export const USAGE = `usage: lev share encode SCENARIO.json [--url PAGE_URL] [--json]   (SCENARIO "-" reads stdin)
       lev share decode FRAGMENT|URL [--json]   (quote URLs: the shell treats # and & specially)`;

export const run: Command = async (args) => {
  const parsed = parseArgs(args, ['url']);
  const [action, target, ...extra] = parsed.positional;
  if (action !== 'encode' && action !== 'decode') {
    return usageError(`share: ${action ? `unknown action "${action}"` : 'expected encode or decode'}\n${USAGE}`);
  }
  const bad = unknownFlag(parsed, action === 'encode' ? ['json', 'url'] : ['json']);
  if (bad) return usageError(`share ${action}: unknown option --${bad}\n${USAGE}`);
  if (target === undefined || extra.length > 0) {
    return usageError(`share ${action}: expected one ${action === 'encode' ? 'SCENARIO file' : 'FRAGMENT or URL'}\n${USAGE}`);
  }
  const json = parsed.flags.has('json');
  if (action === 'decode') return decode(target, json);
  const url = parsed.flags.get('url');
  if (url === true) return usageError(`share encode: --url needs the page address\n${USAGE}`);
  return encode(target, json, url);
};

function decode(link: string, json: boolean): number {
  const result = decodeFragment(link);
  if (json) console.log(JSON.stringify(result));
  else if (result.ok) console.log(JSON.stringify(result.scenario, null, 2));
  else console.error(`lev: share decode: ${result.error}`);
  return result.ok ? EXIT_OK : EXIT_FINDINGS;
}

function encode(path: string, json: boolean, pageUrl: string | undefined): number {
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
    link = pageUrl === undefined ? encodeScenario(scenario as never) : scenarioUrl(pageUrl, scenario as never);
  } catch (err) {
    return failure(`${path}: ${(err as Error).message}`);
  }
  if (json) console.log(JSON.stringify({ ok: true, link, characters: link.length }));
  else console.log(link);
  if (isLongLink(link)) {
    console.error(`lev: share encode: note: the link is ${fmt(link.length)} characters; chat apps such as Discord cut messages at ${fmt(LONG_LINK_CHARS)}. Share the JSON file instead, or use a generator rather than explicit traffic.`);
  }
  return EXIT_OK;
}
