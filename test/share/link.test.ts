import { deflateSync, inflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema, type ScenarioInput } from '../../src/engine/index.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { generateTraffic } from '../../src/scenarios/generators.ts';
import { fromBase64Url, toBase64Url } from '../../src/share/base64url.ts';
import { inflateCapped, InflateLimitError } from '../../src/share/inflate.ts';
import {
  compactScenario,
  decodeFragment,
  encodeScenario,
  isLongLink,
  LONG_LINK_CHARS,
  MAX_INFLATED_BYTES,
  scenarioUrl,
} from '../../src/share/index.ts';
import { deflateBomb } from './bomb.ts';

/** A link made by hand from any JSON value, the way a tampered or foreign link would be. */
function linkOf(json: unknown, version = '1'): string {
  return `#s=${version}.${toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify(json))))}`;
}

function errorOf(link: string): string {
  const result = decodeFragment(link);
  if (result.ok) throw new Error(`expected ${link.slice(0, 40)}… to be refused`);
  return result.error;
}

const minimal: ScenarioInput = {
  version: 1,
  model: { id: 'gpt-4o' },
  agent: { 'agent.leviath': '[context.regions]\n' },
};
// Leaves room for a page address in front of the fragment.
const PAGE_ADDRESS_ALLOWANCE = 100;

describe('examples share', () => {
  for (const example of EXAMPLES) {
    it(`${example.id} round-trips through its link`, () => {
      const fragment = encodeScenario(example.scenario);
      const decoded = decodeFragment(`https://leviath.dev/playground/${fragment}`);
      expect(decoded).toEqual({ ok: true, scenario: ScenarioSchema.parse(example.scenario) });
    });

    it(`${example.id} has a link short enough for chat (< 2,000 characters with the page address)`, () => {
      expect(encodeScenario(example.scenario).length).toBeLessThan(2_000 - PAGE_ADDRESS_ALLOWANCE);
    });
  }
});

describe('encodeScenario', () => {
  it('writes a versioned base64url fragment', () => {
    expect(encodeScenario(minimal)).toMatch(/^#s=1\.[A-Za-z0-9_-]+$/);
  });

  it('leaves defaults out of the payload', () => {
    const compact = compactScenario(
      ScenarioSchema.parse({
        ...minimal,
        model: { window: 32_000 },
        generator: { kind: 'long-chat' },
        traffic: [{ type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep' }] }],
      }),
    );
    expect(JSON.parse(JSON.stringify(compact))).toEqual({
      version: 1,
      model: { window: 32_000 },
      agent: minimal.agent,
      generator: { kind: 'long-chat' },
      traffic: [{ type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep' }] }],
    });
  });

  it('leaves out generator params equal to their defaults, keeping the same traffic', () => {
    const input: ScenarioInput = {
      ...minimal,
      generator: {
        kind: 'coding-agent',
        steps: 300,
        params: { todos: 'todos', analyzeShare: 0.5, fileSizes: { small: 5, medium: 3, large: 2 } },
      },
    };
    const compact = compactScenario(ScenarioSchema.parse(input));
    expect(JSON.parse(JSON.stringify(compact)).generator).toEqual({
      kind: 'coding-agent',
      steps: 300,
      params: { analyzeShare: 0.5 },
    });
    const decoded = decodeFragment(encodeScenario(input));
    if (!decoded.ok) throw new Error(decoded.error);
    expect(generateTraffic(decoded.scenario.generator!)).toEqual(
      generateTraffic(ScenarioSchema.parse(input).generator!),
    );
  });

  it('keeps every non-default value through a round trip', () => {
    const full: ScenarioInput = {
      version: 1,
      name: 'mine',
      description: 'a test',
      model: { window: 9_000, encoding: 'cl100k_base' },
      agent: { 'agent.leviath': 'x = 1\n', 'context_hooks/a.rhai': 'fn render(ctx) { "" }' },
      workdir: { 'README.md': 'hi' },
      commands: { ls: 'a\nb' },
      inputs: { task: 'do it', caller: { brief: 'b' }, standards: 's' },
      traffic: [
        { type: 'user', content: 'héllo 🧪' },
        { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a' } }] },
        { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', size_tokens: 40, is_error: true },
        { type: 'context_delete', region: 'sources', oldest: 2 },
      ],
      generator: { kind: 'coding-agent', seed: 1, steps: 100, params: { todos: null } },
    };
    expect(decodeFragment(encodeScenario(full))).toEqual({ ok: true, scenario: ScenarioSchema.parse(full) });
  });

  it('refuses an invalid scenario, naming the field', () => {
    expect(() =>
      encodeScenario({ ...minimal, traffic: [{ type: 'todo_done', region: 'todos', id: 'one' }] } as never),
    ).toThrow(/traffic\[0\]\.id/);
  });

  it('scenarioUrl replaces any fragment the page already has', () => {
    const url = scenarioUrl('https://leviath.dev/play?x=1#s=1.old', minimal);
    expect(url).toBe(`https://leviath.dev/play?x=1${encodeScenario(minimal)}`);
  });
});

describe('decodeFragment accepts', () => {
  const fragment = encodeScenario(minimal);
  const expected = { ok: true, scenario: ScenarioSchema.parse(minimal) };
  it.each([
    ['a whole URL', `http://localhost:5173/${fragment}`],
    ['a fragment', fragment],
    ['a fragment without #', fragment.slice(1)],
    ['a fragment with other parameters', `#theme=dark&${fragment.slice(1)}`],
    ['surrounding whitespace', `  ${fragment}\n`],
  ])('%s', (_, link) => {
    expect(decodeFragment(link)).toEqual(expected);
  });
});

describe('decodeFragment refuses, saying why', () => {
  const good = encodeScenario(minimal);

  it('a URL with no scenario', () => {
    expect(errorOf('https://leviath.dev/playground/')).toBe(
      'This link holds no scenario: expected a fragment like #s=1.… at the end of the URL.',
    );
  });

  it('a value without a format version', () => {
    expect(errorOf('#s=abc')).toMatch(/^This link is corrupt: the scenario data has no format version/);
  });

  it('a link in another share format', () => {
    expect(errorOf(`#s=2.${good.slice(5)}`)).toBe(
      'This link was made in a different version of the playground (share format 2); this page reads share format 1, scenario version 1. Open it with the version that made it, or export the scenario as JSON there.',
    );
  });

  it('a scenario of another version', () => {
    expect(errorOf(linkOf({ ...minimal, version: 2 }))).toMatch(
      /^This link was made in a different version of the playground \(scenario version 2\)/,
    );
  });

  it('characters that are not base64url', () => {
    expect(errorOf(`${good.slice(0, 10)}*${good.slice(11)}`)).toBe(
      'This link is corrupt: character "*" at position 6 is not base64url. It may have been cut or changed when copied.',
    );
  });

  it('a link cut short', () => {
    const cut = good.slice(0, '#s=1.'.length + 4 * Math.floor((good.length * 0.6) / 4));
    expect(errorOf(cut)).toMatch(
      /^This link is corrupt: its data does not decompress \(.+\)\. It may have been cut short when copied\.$/,
    );
  });

  it('bytes that are not DEFLATE', () => {
    expect(errorOf(`#s=1.${toBase64Url(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))}`)).toMatch(
      /^This link is corrupt: its data does not decompress/,
    );
  });

  it('data that is not JSON', () => {
    expect(errorOf(`#s=1.${toBase64Url(deflateSync(new TextEncoder().encode('{not json')))}`)).toBe(
      'This link is corrupt: its data decompresses but is not scenario JSON.',
    );
  });

  it('JSON that is not a valid scenario, with the path of each problem', () => {
    const error = errorOf(linkOf({ ...minimal, agent: {}, traffic: [{ type: 'tool_result', tool_call_id: 'c1' }] }));
    expect(error).toMatch(/^This link's scenario is not valid: /);
    expect(error).toContain('agent: agent must contain "agent.leviath"');
    expect(error).toContain('traffic[0].tool_name:');
  });

  it('a payload over 2 MB once inflated', () => {
    const big = { ...minimal, workdir: { 'big.txt': 'a'.repeat(MAX_INFLATED_BYTES) } };
    const link = linkOf(big);
    expect(link.length).toBeLessThan(10_000);
    expect(errorOf(link)).toBe(
      "This link's scenario is larger than 2 MB once decompressed, so it was not opened. Share big scenarios as a JSON file instead.",
    );
  });
});

describe('deflate bombs', () => {
  it('the hand-built bomb really inflates to what it claims', () => {
    const bytes = inflateSync(deflateBomb(4 * 1024 * 1024));
    expect(bytes.length).toBe(1 + 258 * Math.floor((4 * 1024 * 1024 - 1) / 258));
    expect(bytes.every((b) => b === 0)).toBe(true);
  });

  it('a 1 GiB bomb stops at the cap, never holding more than the cap plus one slice', () => {
    const bomb = deflateBomb(2 ** 30);
    let caught: unknown;
    const before = process.memoryUsage().rss;
    try {
      inflateCapped(bomb, MAX_INFLATED_BYTES);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InflateLimitError);
    // Inflating the whole bomb would need a gigabyte; stopping at the cap needs a few megabytes.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    // As a link it is too long to be decoded at all (a smaller bomb reaches the cap: test/hostile/share.test.ts).
    expect(errorOf(`#s=1.${toBase64Url(bomb)}`)).toMatch(
      /^This link is 9,\d{3},\d{3} characters long, more than a scenario of 2 MB can make/,
    );
  });

  it('inflateCapped returns data under the cap intact', () => {
    const data = new TextEncoder().encode('x'.repeat(100_000));
    expect(inflateCapped(deflateSync(data), 100_000)).toEqual(data);
    expect(() => inflateCapped(deflateSync(data), 99_999)).toThrow(InflateLimitError);
  });
});

describe('base64url', () => {
  it('round-trips every length and byte value', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n * 11) & 0xff);
      const text = toBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(text)).toEqual({ ok: true, bytes });
    }
  });

  it('refuses an impossible length', () => {
    expect(fromBase64Url('abcde')).toEqual({ ok: false, error: 'its length (5) is not a possible base64url length' });
  });
});

describe('isLongLink', () => {
  it('flags a link only beyond LONG_LINK_CHARS, for the page and lev share alike', () => {
    expect(isLongLink('x'.repeat(LONG_LINK_CHARS))).toBe(false);
    expect(isLongLink('x'.repeat(LONG_LINK_CHARS + 1))).toBe(true);
  });
});
