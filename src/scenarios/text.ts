// Deterministic prose for generated messages. Text is sliced out of one fixed corpus, so making a
// message costs the same whatever the history length, and V8 keeps slices cheap.
import { createRandom, type Random } from './random.ts';
import { itemAt } from '../engine/page.ts';

const WORDS = (
  'the a to of and in that is for it on with as this be by are was from or an at which not have ' +
  'we can will should but if when then so because each every only also still more less one two three ' +
  'function module parser test build error value type region budget token window stage cache prefix ' +
  'file line config request response result query source finding summary change patch branch commit ' +
  'read write check keep drop move split merge retry handle return call update remove rename measure ' +
  'header field record entry index key list map table queue buffer stream batch limit default option ' +
  'small large recent older first last next previous current expected actual missing broken stable ' +
  'user agent model tool output input task plan step note idea reason detail example case edge path'
).split(' ');

const CORPUS_WORDS = 8192;

interface Corpus {
  text: string;
  /** Offset of each word's first character; one extra entry holds the text's length. */
  starts: number[];
}

let corpus: Corpus | undefined;

function buildCorpus(): Corpus {
  const random = createRandom(0x1e71a7);
  const parts: string[] = [];
  const starts: number[] = [];
  let length = 0;
  let sentenceStart = true;
  for (let i = 0; i < CORPUS_WORDS; i++) {
    let word = random.pick(WORDS);
    if (sentenceStart) word = word.charAt(0).toUpperCase() + word.slice(1);
    sentenceStart = random.chance(0.09);
    if (sentenceStart) word += '.';
    else if (random.chance(0.05)) word += ',';
    const part = i === 0 ? word : ` ${word}`;
    starts.push(i === 0 ? 0 : length + 1);
    parts.push(part);
    length += part.length;
  }
  starts.push(length);
  return { text: parts.join(''), starts };
}

/** `count` words of prose (at least one), starting at a random word. */
export function prose(random: Random, count: number): string {
  if (count > CORPUS_WORDS) {
    return `${prose(random, CORPUS_WORDS)} ${prose(random, count - CORPUS_WORDS)}`;
  }
  corpus ??= buildCorpus();
  const n = Math.max(1, count);
  const first = random.int(0, CORPUS_WORDS - n);
  const end = first + n === CORPUS_WORDS ? corpus.text.length : itemAt(corpus.starts, first + n) - 1;
  return corpus.text.slice(itemAt(corpus.starts, first), end);
}

/** Prose broken into lines of a few words each, for multi-line tool output. */
export function lines(random: Random, count: number): string {
  return prose(random, count).replace(/(\S+ \S+ \S+ \S+ \S+ \S+ \S+ \S+ \S+) /g, '$1\n');
}
