import { describe, expect, it } from 'vitest';
import type { ToolRouting } from '../../src/engine/blueprint/types.ts';
import {
  READ_FILE_BYTE_CAP,
  capReadFile,
  capToolResult,
  lookupTool,
  routeToolResult,
  truncationMarker,
} from '../../src/engine/routing.ts';
import { countTokens, encode } from '../../src/engine/tokens.ts';

const visible = new Set(['scratch', 'codebase', 'findings']);
const routing = (r: Partial<ToolRouting>): ToolRouting => ({ overrides: {}, maxResultTokensPerTool: {}, ...r });

describe('routeToolResult', () => {
  it('nothing routes it: tool_results, no ceiling', () => {
    expect(routeToolResult(undefined, 'grep', visible)).toEqual({ region: 'tool_results' });
    expect(routeToolResult(routing({}), 'grep', visible)).toEqual({ region: 'tool_results' });
  });

  it('default_region and the stage-level ceiling', () => {
    expect(routeToolResult(routing({ defaultRegion: 'scratch', maxResultTokens: 4000 }), 'grep', visible)).toEqual({
      region: 'scratch',
      maxResultTokens: 4000,
    });
  });

  it('override as a region name, as a table, and as a ceiling only', () => {
    const r = routing({
      defaultRegion: 'scratch',
      maxResultTokens: 4000,
      overrides: {
        read_file: { region: 'codebase', maxResultTokens: 20000 },
        grep: { region: 'findings' },
        ls: { maxResultTokens: 500 },
      },
    });
    expect(routeToolResult(r, 'read_file', visible)).toEqual({ region: 'codebase', maxResultTokens: 20000 });
    expect(routeToolResult(r, 'grep', visible)).toEqual({ region: 'findings', maxResultTokens: 4000 });
    expect(routeToolResult(r, 'ls', visible)).toEqual({ region: 'scratch', maxResultTokens: 500 });
  });

  it('max_result_tokens_per_tool beats the stage ceiling; an override ceiling beats both', () => {
    const r = routing({
      maxResultTokens: 4000,
      maxResultTokensPerTool: { read_file: 20000, grep: 300 },
      overrides: { grep: { maxResultTokens: 100 } },
    });
    expect(routeToolResult(r, 'read_file', visible)).toEqual({ region: 'tool_results', maxResultTokens: 20000 });
    expect(routeToolResult(r, 'grep', visible)).toEqual({ region: 'tool_results', maxResultTokens: 100 });
    expect(routeToolResult(r, 'shell', visible)).toEqual({ region: 'tool_results', maxResultTokens: 4000 });
  });

  it('aliases match both ways; the exact name wins', () => {
    const r = routing({
      overrides: { bash: { region: 'scratch' }, read: { region: 'codebase' } },
      maxResultTokensPerTool: { shell: 50 },
    });
    expect(routeToolResult(r, 'shell', visible)).toEqual({ region: 'scratch', maxResultTokens: 50 });
    expect(routeToolResult(r, 'read_file', visible)).toEqual({ region: 'codebase' });
    expect(routeToolResult(r, 'bash', visible)).toEqual({ region: 'scratch', maxResultTokens: 50 });
    const both = routing({ overrides: { bash: { region: 'scratch' }, shell: { region: 'codebase' } } });
    expect(routeToolResult(both, 'shell', visible)).toEqual({ region: 'codebase' });
    expect(lookupTool({ cat: 1 }, 'read_file')).toBe(1);
    expect(lookupTool({ cat: 1 }, 'write_file')).toBeUndefined();
  });

  it('an invisible target falls through; the runtime regions are always visible', () => {
    const r = routing({
      defaultRegion: 'gone',
      overrides: { grep: { region: 'hidden' }, fetch: { region: 'conversation' } },
    });
    expect(routeToolResult(r, 'grep', visible)).toEqual({ region: 'tool_results' });
    expect(routeToolResult(r, 'web_fetch', visible)).toEqual({ region: 'conversation' });
    expect(
      routeToolResult(
        routing({ defaultRegion: 'scratch', overrides: { grep: { region: 'hidden' } } }),
        'grep',
        visible,
      ),
    ).toEqual({ region: 'scratch' });
  });
});

describe('capToolResult', () => {
  const text = Array.from({ length: 400 }, (_, i) => `line ${i}: the quick brown fox`).join('\n');
  const total = encode(text).length;

  it('under the ceiling or uncapped: unchanged, counted once', () => {
    expect(capToolResult(text, undefined, 'o200k_base')).toEqual({ content: text, tokens: total, truncated: false });
    expect(capToolResult(text, total, 'o200k_base')).toEqual({ content: text, tokens: total, truncated: false });
  });

  it('over the ceiling: head plus a marker, within the ceiling, count exact', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const all = encode(text, encoding).length;
      const capped = capToolResult(text, 200, encoding);
      expect(capped.truncated).toBe(true);
      expect(capped.tokens).toBe(countTokens(capped.content, encoding));
      expect(capped.tokens).toBeLessThanOrEqual(200);
      expect(capped.tokens).toBeGreaterThan(170);
      const marker = /\n\[truncated: ([\d,]+) of ([\d,]+) tokens cut by max_result_tokens = 200\]$/.exec(
        capped.content,
      )!;
      expect(marker[2]).toBe(all.toLocaleString('en-US'));
      const head = capped.content.slice(0, marker.index);
      expect(text.startsWith(head)).toBe(true);
      expect(Number(marker[1]!.replace(/,/g, ''))).toBe(all - encode(head, encoding).length);
    }
  });

  it('a count the caller gives is the one used: the same cut as counting it', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const all = encode(text, encoding).length;
      for (const max of [50, 200, 1_000, all])
        expect(capToolResult(text, max, encoding, { tokens: all })).toEqual(capToolResult(text, max, encoding));
    }
  });

  it('never splits a multi-byte character, and says how many tokens it cut', () => {
    const emoji = '🧪'.repeat(300);
    const all = encode(emoji).length;
    for (const max of [59, 60, 61]) {
      const capped = capToolResult(emoji, max, 'o200k_base');
      expect(capped.content).not.toContain('\uFFFD');
      expect(capped.tokens).toBe(countTokens(capped.content));
      expect(capped.tokens).toBeLessThanOrEqual(max);
      const head = capped.content.slice(0, capped.content.indexOf('\n[truncated'));
      expect(emoji.startsWith(head)).toBe(true);
      expect(capped.cut).toBe(all - encode(head).length);
    }
  });

  it('a cut inside a character leaves nothing behind: the next result is capped as it was before', () => {
    const japanese = '日本語のテキストを読む。'.repeat(80);
    const before = capToolResult(japanese, 50, 'o200k_base');
    for (const max of [59, 60, 61]) capToolResult('🧪'.repeat(300), max, 'o200k_base');
    expect(capToolResult(japanese, 50, 'o200k_base')).toEqual(before);
    expect(japanese.startsWith(before.content.slice(0, before.content.indexOf('\n[truncated')))).toBe(true);
  });

  it('a ceiling smaller than the marker keeps only the marker', () => {
    const capped = capToolResult(text, 3, 'o200k_base');
    expect(capped.content).toBe(truncationMarker(total, total, 3));
    expect(capped.truncated).toBe(true);
  });
});

describe('capReadFile', () => {
  it('small files pass untouched', () => {
    expect(capReadFile('hello')).toEqual({ content: 'hello' });
    expect(capReadFile('x'.repeat(READ_FILE_BYTE_CAP))).toEqual({ content: 'x'.repeat(READ_FILE_BYTE_CAP) });
  });

  it('cuts on a line break with a notice', () => {
    const line = `${'a'.repeat(99)}\n`; // 100 bytes
    const file = line.repeat(1500) + 'tail';
    const { content, notice } = capReadFile(file);
    expect(content).toBe(line.repeat(1000));
    expect(notice).toBe(
      "\n[read_file: showing the first 100,000 of 150,004 bytes; the file is longer than read_file's 100,000-byte cap]",
    );
  });

  it('without line breaks, cuts on a character boundary', () => {
    const file = 'é'.repeat(60_000); // 2 bytes each: 120,000 bytes
    const { content, notice } = capReadFile(file);
    expect(content).toBe('é'.repeat(50_000));
    expect(notice).toContain('first 100,000 of 120,000 bytes');
    const odd = `a${'é'.repeat(60_000)}`; // the cap falls inside a character
    expect(capReadFile(odd).content).toBe(`a${'é'.repeat(49_999)}`);
  });
});
