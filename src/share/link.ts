// Scenario <-> URL fragment: `#s=1.<base64url of raw DEFLATE of compact JSON>`.
// The `1` is the share format; a link in another format is refused with a message that says so.
// The page and `lev share` both call these two functions.
import { deflateSync } from 'fflate';
import {
  DEFAULT_SCENARIO_NAME,
  GeneratorSchema,
  SCENARIO_VERSION,
  ScenarioSchema,
  type GeneratorSpec,
  type Scenario,
  type ScenarioInput,
  type TrafficEvent,
  fmt,
  MAX_INFLATED_BYTES,
  MAX_LINK_CHARS,
} from '../engine/page.ts';
import { GENERATOR_PARAMS } from '../scenarios/generators.ts';
import { formatIssues } from '../scenarios/issues.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { inflateCapped, InflateLimitError } from './inflate.ts';

export const SHARE_FORMAT_VERSION = 1;
/** A scenario larger than this once inflated is refused; a longer share value is not decoded at all (limits.ts). */
export { MAX_INFLATED_BYTES, MAX_LINK_CHARS };
/** Discord cuts messages at 2,000 characters; links beyond this are flagged as long. */
export const LONG_LINK_CHARS = 2_000;

/** Firefox's address bar stops at 65,536 characters: the page never puts a longer link there. */
export const MAX_ADDRESS_CHARS = 65_536;

/** The one rule the page and `lev share` use to warn that a link is too long for chat. */
export function isLongLink(link: string): boolean {
  return link.length > LONG_LINK_CHARS;
}
const PARAM = 's';

export type DecodeResult = { ok: true; scenario: Scenario } | { ok: false; error: string };

/** The URL fragment (starting with `#`) that holds the scenario. Throws if the scenario is invalid. */
export function encodeScenario(input: ScenarioInput): string {
  const parsed = ScenarioSchema.safeParse(input);
  if (!parsed.success) {
    throw new Error(`cannot share an invalid scenario:\n  ${formatIssues(parsed.error).join('\n  ')}`);
  }
  const json = JSON.stringify(compactScenario(parsed.data));
  const packed = deflateSync(new TextEncoder().encode(json), { level: 9 });
  return `#${PARAM}=${SHARE_FORMAT_VERSION}.${toBase64Url(packed)}`;
}

/** `pageUrl` with its fragment replaced by the scenario's. */
export function scenarioUrl(pageUrl: string, input: ScenarioInput): string {
  return pageUrl.split('#')[0] + encodeScenario(input);
}

/** Accepts a whole URL, a fragment with or without `#`, or the bare `s=...` value. */
export function decodeFragment(fragmentOrUrl: string): DecodeResult {
  const value = shareValue(fragmentOrUrl.trim());
  if (value === undefined) {
    return fail('This link holds no scenario: expected a fragment like #s=1.… at the end of the URL.');
  }
  const dot = value.indexOf('.');
  const version = dot < 0 ? '' : value.slice(0, dot);
  if (!/^\d+$/.test(version)) {
    return fail(
      'This link is corrupt: the scenario data has no format version (#s=1.…). It may have been cut or changed when copied.',
    );
  }
  if (Number(version) !== SHARE_FORMAT_VERSION) return otherVersion(`share format ${version}`);
  if (value.length > MAX_LINK_CHARS) {
    return fail(
      `This link is ${fmt(value.length)} characters long, more than a scenario of ${MAX_INFLATED_BYTES / 1024 / 1024} MB can make (${fmt(MAX_LINK_CHARS)}), so it was not opened. Share big scenarios as a JSON file instead.`,
    );
  }
  const decoded = fromBase64Url(value.slice(dot + 1));
  if (!decoded.ok) return fail(`This link is corrupt: ${decoded.error}. It may have been cut or changed when copied.`);
  return decodePayload(decoded.bytes);
}

function decodePayload(packed: Uint8Array): DecodeResult {
  let bytes: Uint8Array;
  try {
    bytes = inflateCapped(packed, MAX_INFLATED_BYTES);
  } catch (err) {
    if (err instanceof InflateLimitError) {
      return fail(
        `This link's scenario is larger than ${MAX_INFLATED_BYTES / 1024 / 1024} MB once decompressed, so it was not opened. Share big scenarios as a JSON file instead.`,
      );
    }
    const why = err instanceof Error ? err.message : String(err);
    return fail(`This link is corrupt: its data does not decompress (${why}). It may have been cut short when copied.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail('This link is corrupt: its data decompresses but is not scenario JSON.');
  }
  return parseScenario(json);
}

function parseScenario(json: unknown): DecodeResult {
  if (typeof json === 'object' && json !== null && 'version' in json && json.version !== SCENARIO_VERSION) {
    return otherVersion(`scenario version ${JSON.stringify(json.version)}`);
  }
  const parsed = ScenarioSchema.safeParse(json);
  if (parsed.success) return { ok: true, scenario: parsed.data };
  const issues = formatIssues(parsed.error);
  const shown = issues.slice(0, 5).join('; ') + (issues.length > 5 ? `; and ${issues.length - 5} more` : '');
  return fail(`This link's scenario is not valid: ${shown}.`);
}

function shareValue(text: string): string | undefined {
  const hash = text.indexOf('#');
  const fragment = hash >= 0 ? text.slice(hash + 1) : text;
  for (const part of fragment.split('&')) {
    if (part.startsWith(`${PARAM}=`)) return part.slice(PARAM.length + 1);
  }
  return undefined;
}

function otherVersion(what: string): DecodeResult {
  return fail(
    `This link was made in a different version of the playground (${what}); this page reads share format ${SHARE_FORMAT_VERSION}, scenario version ${SCENARIO_VERSION}. Open it with the version that made it, or export the scenario as JSON there.`,
  );
}

function fail(error: string): DecodeResult {
  return { ok: false, error };
}

// The values ScenarioSchema fills in when a key is missing; leaving them out keeps links short.
let generatorDefaults: GeneratorSpec | undefined;
const defaultsOfGenerator = () => (generatorDefaults ??= GeneratorSchema.parse({ kind: 'coding-agent' }));
const DEFAULT_ENCODING = 'o200k_base';

/** The scenario without the values ScenarioSchema fills in by default, so links stay short. */
export function compactScenario(scenario: Scenario): Record<string, unknown> {
  const out: Record<string, unknown> = { version: scenario.version };
  if (scenario.name !== DEFAULT_SCENARIO_NAME) out.name = scenario.name;
  if (scenario.description !== undefined) out.description = scenario.description;
  out.model =
    'window' in scenario.model && scenario.model.encoding === DEFAULT_ENCODING
      ? { ...scenario.model, encoding: undefined }
      : scenario.model;
  out.agent = scenario.agent;
  if (Object.keys(scenario.workdir).length > 0) out.workdir = scenario.workdir;
  if (Object.keys(scenario.commands).length > 0) out.commands = scenario.commands;
  if (Object.keys(scenario.inputs).length > 0) out.inputs = scenario.inputs;
  if (scenario.traffic.length > 0) out.traffic = scenario.traffic.map(compactEvent);
  if (scenario.generator) {
    const { kind, seed, steps, params } = scenario.generator;
    out.generator = {
      kind,
      seed: seed === defaultsOfGenerator().seed ? undefined : seed,
      steps: steps === defaultsOfGenerator().steps ? undefined : steps,
      params: params && compactParams(kind, params),
    };
  }
  return out;
}

/** Drops params equal to the generator's defaults; undefined when nothing else is left. */
function compactParams(
  kind: keyof typeof GENERATOR_PARAMS,
  params: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const defaults: Record<string, unknown> = GENERATOR_PARAMS[kind].parse({});
  const kept = Object.entries(params).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(defaults[key]));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function compactEvent(event: TrafficEvent): TrafficEvent {
  if (event.type !== 'assistant' || !event.tool_calls) return event;
  return {
    ...event,
    tool_calls: event.tool_calls.map((call) =>
      Object.keys(call.arguments).length > 0 ? call : ({ id: call.id, name: call.name } as typeof call),
    ),
  };
}
