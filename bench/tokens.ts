// Token counting per megabyte, on ordinary text and on the runs that once made it quadratic (one
// huge pre-token: `" \n".repeat(N)` took 3.8 s at 64 KB and never finished at 1 MB). Linear means
// every kind costs about the same per MB and 4 MB costs four times 1 MB.
import { countTokens } from '../src/engine/index.ts';

export interface TokenBenchRow {
  name: string;
  msPerMb: number;
  msPer4Mb: number;
}

const prose =
  "The usual way to give a model its history is one flat list of messages; it's got a failure mode (x = 42).\n";
const KINDS: [string, string][] = [
  ['prose', prose],
  ['code', 'fn main() {\n    let v: Vec<u32> = (0..10).map(|x| x * 2).collect();\n}\n'],
  ['" \\n" alternating', ' \n'],
  ['"  \\n"', '  \n'],
  ['" \\u00a0"', ' \u00a0'],
  ['one letter', 'a'],
  ['CJK', '漢字'],
  ['emoji', '🧪'],
];

const MB = 1_048_576;

function timeOnce(text: string): number {
  const start = performance.now();
  countTokens(text);
  return performance.now() - start;
}

export function benchTokens(): TokenBenchRow[] {
  return KINDS.map(([name, unit]) => {
    const make = (bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));
    const oneMb = make(MB);
    const fourMb = make(4 * MB);
    timeOnce(oneMb.slice(0, 100_000)); // warm up
    return { name, msPerMb: timeOnce(oneMb), msPer4Mb: timeOnce(fourMb) };
  });
}
