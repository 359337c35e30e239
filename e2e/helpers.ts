// Shared steps for the e2e suite. Expected numbers come from the engine itself, run here in Node,
// so every assertion compares the page with what `lev replay` would print.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { findExample } from '../src/scenarios/examples.ts';
import {
  ScenarioSchema,
  type Scenario,
  type RegionFigures,
  type StepDetail,
  type Timeline,
  type TimelineStep,
  loadEncodings,
  replay,
  Replay,
} from '../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../src/scenarios/generators.ts';
import { RHAI } from '../src/engine/custom-script.ts';
import { assistant, scenario, user } from '../test/builders.ts';

// The engine here counts with either encoding (the page loads only the one its model needs).
await loadEncodings();

export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export function exampleScenario(id: string): Scenario {
  const example = findExample(id);
  if (!example) throw new Error(`no example ${id}`);
  return ScenarioSchema.parse(example.scenario);
}

const timelines = new Map<string, Timeline>();
export function engineTimeline(scenario: Scenario): Timeline {
  const key = JSON.stringify(scenario);
  if (!timelines.has(key)) timelines.set(key, replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }));
  return timelines.get(key)!;
}

/** `value`, or a failure naming what the test expected to find: where an index or a key may miss. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what}, found none`);
  return value;
}

/** One region's row of a readout read by readRegionReadout. */
export function readoutRow(readout: Record<string, ReadoutRow>, region: string): ReadoutRow {
  return present(readout[region], `a row for region ${region} in the readout`);
}

/** A scenario's blueprint text (its agent.leviath). */
export function blueprintOf(scenario: Scenario): string {
  return present(scenario.agent['agent.leviath'], 'an agent.leviath in the scenario');
}

/** Step k (from 0) of a timeline. */
export function stepAt(timeline: Timeline, k: number): TimelineStep {
  return present(timeline.steps[k], `step ${k} of ${timeline.steps.length}`);
}

/** A region's figures at step k (from 0) of a timeline. */
export function regionAt(timeline: Timeline, k: number, region: string): RegionFigures {
  return present(stepAt(timeline, k).regions[region], `region ${region} at step ${k}`);
}

export function engineDetail(scenario: Scenario, step: number): StepDetail {
  return new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(step);
}

/** Collects console errors and page errors; assert it is empty at the end of a test. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Waits until the worker's latest replay is on screen (optionally of a given length). */
export async function waitForTimeline(page: Page, steps?: number): Promise<void> {
  const charts = page.getByTestId('charts');
  await expect(charts).toHaveAttribute('data-ready', 'yes', { timeout: 30_000 });
  if (steps !== undefined) await expect(charts).toHaveAttribute('data-steps', String(steps), { timeout: 30_000 });
}

/**
 * Replaces the open file's text the way a user would: select all, paste. (Typed text would be
 * auto-indented and auto-closed by Monaco, as it is for a person typing.) On a loaded machine a
 * click on Monaco sometimes leaves the focus on the page, and the keys would then select and copy
 * the page: so each attempt makes sure the focus is inside the editor first, and the editor's
 * whole text is copied back and compared before the helper trusts it.
 */
export async function setEditorText(page: Page, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const editor = page.getByTestId('editor').locator('.monaco-editor').first();
  const clipboard = {
    write: (t: string) => page.evaluate((value) => navigator.clipboard.writeText(value), t),
    read: () => page.evaluate(() => navigator.clipboard.readText()),
  };
  // 'in the editor', or where the focus is instead (for the failure message).
  const focus = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (active?.closest('[data-testid="editor"] .monaco-editor')) return 'in the editor';
      return `on ${active?.tagName.toLowerCase()}.${String((active as HTMLElement | null)?.className ?? '')} (page focused: ${document.hasFocus()})`;
    });
  // Monaco keeps one end-of-line sequence: a pasted \r or \r\n becomes \n.
  const expected = text.replace(/\r\n?/g, '\n');
  let inEditor = '';
  for (let attempt = 1; attempt <= 3 && inEditor !== expected; attempt++) {
    await clipboard.write(text);
    await expect(async () => {
      await editor.locator('.view-lines').click();
      // Under load a click sometimes leaves the focus on the page: then focus the editor's input
      // the way Tab would.
      let where = await focus();
      if (where !== 'in the editor') {
        await editor.getByRole('textbox').first().focus();
        where = await focus();
      }
      expect(where, 'where the focus is after clicking the editor').toBe('in the editor');
    }).toPass({ timeout: 10_000 });
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+V');
    await clipboard.write('');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+C');
    inEditor = await clipboard.read();
  }
  expect(inEditor, 'the editor holds the pasted text').toBe(expected);
  await page.keyboard.press('ControlOrMeta+Home');
}

/** Adds a file to the agent directory through the + button's prompt, opens it and sets its text. */
export async function addAgentFile(page: Page, path: string, text: string): Promise<void> {
  page.once('dialog', (d) => d.accept(path));
  await page.getByTitle('Add a file (a hook script, a seed script)').click();
  await expect(page.getByRole('tab', { name: path.split('/').pop() })).toHaveAttribute('aria-selected', 'true');
  await setEditorText(page, text);
}

export type ReadoutRow = { tokens: string; budget: string; entries: string };

/** Token figures of the region readout table at the scrubbed step. */
export async function readRegionReadout(page: Page): Promise<Record<string, ReadoutRow>> {
  const rows = page.getByTestId('region-readout').locator('tbody tr');
  const out: Record<string, ReadoutRow> = {};
  for (const row of await rows.all()) {
    const name = (await row.getAttribute('data-region'))!;
    out[name] = {
      tokens: await row.getByTestId('tokens').innerText(),
      budget: await row.getByTestId('budget').innerText(),
      entries: await row.getByTestId('entries').innerText(),
    };
  }
  return out;
}

/** Scrubs to a step (0-based) with the keyboard, as a user would. */
export async function goToStep(page: Page, step: number, total: number): Promise<void> {
  await page
    .locator('body')
    .click({ position: { x: 5, y: 5 } })
    .catch(() => undefined);
  const scrubber = page.getByTestId('scrubber');
  await scrubber.focus();
  await scrubber.fill(String(step));
  await expect(page.getByTestId('step-label')).toContainText(`Step ${step + 1} of ${fmt(total)}`);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(step), { timeout: 20_000 });
}

/** A long task: when it started (ms since navigation) and how long it took. */
export interface LongTask {
  start: number;
  ms: number;
}

/** Starts recording long tasks (PerformanceObserver) on every page load; read with longTasks(). */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longtasks: { start: number; ms: number }[] };
    w.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longtasks.push({ start: entry.startTime, ms: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

export async function resetLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __longtasks: LongTask[] }).__longtasks = [];
  });
}

/** The recorded long tasks, each with its start. */
export async function longTaskEntries(page: Page): Promise<LongTask[]> {
  return page.evaluate(() => (window as unknown as { __longtasks: LongTask[] }).__longtasks);
}

/** The recorded long tasks' durations. */
export async function longTasks(page: Page): Promise<number[]> {
  return (await longTaskEntries(page)).map((t) => t.ms);
}

/**
 * A run whose one tool result is 100 KB of real text: a harness's recorded request bodies
 * (test/import/fixtures/real/SOURCES.md). The token view's size case, in e2e/tokens.spec.ts and in
 * the bench's page probe (e2e/page.spec.ts).
 */
export function bigToolResultScenario(): Scenario {
  const big = readFileSync(
    new URL('../test/import/fixtures/real/claude-trace-first-calls.jsonl', import.meta.url),
    'utf8',
  ).slice(0, 100_000);
  return scenario('', [
    user('Read the trace.'),
    assistant('Reading it.', ['c1', 'bash', { command: 'cat trace.jsonl' }]),
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'bash', content: big },
    assistant('Read.'),
  ]);
}

/**
 * The serious and critical axe findings on the page (or inside `include`), one line each with up to
 * three of the elements. axe runs in the page itself (legacy mode) instead of gathering its results
 * in a blank page it opens: the same rules over the same DOM, 1-1.4 s a run here instead of 4.3-6.5 s.
 * That mode leaves cross-origin frames untested, so the page is first checked to have no frame at
 * all. Only violations are gathered in full (resultTypes): the passes' elements are never read.
 */
export async function seriousAxeFindings(page: Page, include?: string): Promise<string[]> {
  expect(
    page.frames().map((f) => f.url()),
    'frames besides the page (axe in legacy mode tests none from another origin)',
  ).toHaveLength(1);
  let builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help}, ${v.nodes.length} (${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')})`,
    );
}

/**
 * The information notices that go by themselves. A lasting one (auto-run turned off after a slow
 * replay on a busy machine) may stand beside them and is not what these tests are about.
 */
export function passingInfo(page: Page): Locator {
  return page.locator('[data-testid="notice-info"]:not([data-lifetime="until-closed"])');
}
