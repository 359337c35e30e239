// The figure schema: what the engine reports is exactly its declared columns, a table crosses as
// typed arrays and reads back row for row, and the charts draw the declared lines in order.
import { describe, expect, it } from 'vitest';
import {
  CACHE_COLUMNS,
  REGION_COLUMNS,
  REQUEST_COLUMNS,
  chartLines,
  rowAt,
  toColumnArrays,
  type Columns,
} from '../../src/engine/figures.ts';
import { replay } from '../../src/engine/index.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';

const timeline = replay(ScenarioSchema.parse(findExample('stage-instructions-cache')!.scenario), {
  ...BUILT_IN_TRAFFIC,
  ...RHAI,
});
const requests = timeline.steps.flatMap((s) => (s.request ? [s.request] : []));
const keys = (columns: Columns, ...more: string[]) => [...Object.keys(columns), ...more].sort();
const typeOf = (value: unknown) => (typeof value === 'boolean' ? 'flag' : Number.isInteger(value) ? 'int' : 'number');

describe('figure columns', () => {
  it("are exactly what the engine reports for each region, request and cache, each value of its column's type", () => {
    expect(requests.length).toBeGreaterThan(10);
    for (const step of timeline.steps) {
      for (const figures of Object.values(step.regions)) {
        expect(Object.keys(figures).sort()).toEqual(keys(REGION_COLUMNS));
        for (const [name, column] of Object.entries(REGION_COLUMNS))
          expect([name, typeOf(figures[name as keyof typeof figures])]).toEqual([name, column.type]);
      }
    }
    for (const request of requests) {
      expect(Object.keys(request).sort()).toEqual(keys(REQUEST_COLUMNS, 'cache'));
      expect(Object.keys(request.cache).sort()).toEqual(keys(CACHE_COLUMNS, 'rule'));
      for (const [name, column] of Object.entries(REQUEST_COLUMNS)) {
        const type = typeOf(request[name as keyof typeof REQUEST_COLUMNS]);
        // A fraction that happens to be whole (0 or 1) is still a `number` column.
        expect([name, column.type === 'number' ? 'number' : type]).toEqual([name, column.type]);
      }
    }
  });

  it('cross as typed arrays and read back row for row: flags as booleans, fractions exactly', () => {
    const arrays = toColumnArrays(REQUEST_COLUMNS, requests, (r) => r);
    expect(arrays.prefixShare).toBeInstanceOf(Float64Array);
    expect(arrays.taskInWindow).toBeInstanceOf(Uint8Array);
    expect(arrays.requestTokens).toBeInstanceOf(Int32Array);
    requests.forEach((request, k) => {
      const { cache, ...row } = request;
      expect(rowAt(REQUEST_COLUMNS, arrays, k)).toEqual(row);
      expect(cache.rule.length).toBeGreaterThan(0);
    });
  });

  it('are drawn by the charts that declare a line for them, in declaration order (a later line over an earlier one)', () => {
    expect(chartLines('cache', REQUEST_COLUMNS, CACHE_COLUMNS).map((l) => [l.column, l.label])).toEqual([
      ['requestTokens', 'request'],
      ['prefixTokens', 'stable prefix'],
      ['cacheReadTokens', 'cache reads'],
    ]);
    expect(chartLines('flat', REQUEST_COLUMNS, CACHE_COLUMNS).map((l) => [l.column, l.label])).toEqual([
      ['baselineTokens', 'flat list'],
      ['requestTokens', 'blueprint'],
    ]);
    expect(chartLines('region', REGION_COLUMNS).map((l) => [l.column, l.area === true])).toEqual([
      ['tokens', true],
      ['budget', false],
    ]);
  });

  it("take one entry to add a series: a charted column crosses with the rest and joins its chart's lines", () => {
    const withWrites = {
      ...CACHE_COLUMNS,
      cacheWriteTokens: {
        type: 'int',
        charts: { cache: { label: 'cache writes', legend: 'cache writes (thin)', colour: '#CC79A7', width: 1 } },
      },
    } as const satisfies Columns;
    const arrays = toColumnArrays(withWrites, requests, (r) => r.cache);
    expect(arrays.cacheWriteTokens).toEqual(Int32Array.from(requests, (r) => r.cache.cacheWriteTokens));
    expect(chartLines('cache', REQUEST_COLUMNS, withWrites).map((l) => l.column)).toEqual([
      'requestTokens',
      'prefixTokens',
      'cacheReadTokens',
      'cacheWriteTokens',
    ]);
  });
});
