// The files a shell call reads, for read again later (read-again.ts): Codex reads nearly every file
// with `sed -n`, `cat`, `rg` or `nl` in its shell, and Claude Code often does through Bash, so a
// shell result that held a file is as much that file's content as a read_file result is.
//
// Conservative by design (docs/decisions/advise.md, "What is a name"): only the commands of
// READERS, only words that are plain text (no quoting left open, no `$`, globs or substitutions),
// never a redirection's target or a here-document's body, never a `sed -i` (an edit). A search's
// path operands are taken only when they look like files (a last segment with an extension): `rg
// TODO src` searches a directory, and what it printed is not that directory's content.

import { itemAt } from './item-at.ts';

/** A shell call's arguments as the import writes them: `command` (a string, or argv) or `cmd`. */
export function shellScript(args: Readonly<Record<string, unknown>>): string[][] {
  const command = commandOf(args);
  if (command === undefined) return [];
  return typeof command === 'string' ? simpleCommands(command) : [command];
}

/**
 * What the call ran, as the model wrote it: the script (`command` or `cmd` as a string, or the
 * script of `bash -lc SCRIPT`), or any other argv joined by spaces; undefined when it has neither.
 */
export function commandLine(args: Readonly<Record<string, unknown>>): string | undefined {
  const command = commandOf(args);
  return typeof command === 'string' ? command : command?.join(' ');
}

/** A call's script (a string), or its argv when it is not a shell running a script. */
function commandOf(args: Readonly<Record<string, unknown>>): string | string[] | undefined {
  const command = args.command ?? args.cmd;
  if (typeof command === 'string') return command;
  if (!Array.isArray(command) || !command.every((w): w is string => typeof w === 'string')) return undefined;
  // `["bash", "-lc", "sed -n 1,200p a.rs"]`: the script is the last word; any other argv is one command.
  const shell = SHELLS.has(basename(command[0] ?? ''));
  const flag = command.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
  const script = shell && flag > 0 ? command[flag + 1] : undefined;
  return script ?? command;
}

/** The files a shell call's commands read, in order, each once. */
export function shellReads(args: Readonly<Record<string, unknown>>): string[] {
  const out = new Set<string>();
  for (const argv of shellScript(args)) for (const path of readsOf(argv)) out.add(path);
  return [...out];
}

const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh', 'dash']);

/** Commands that print the files named in their operands. */
type Reader = { kind: 'print' | 'sed' | 'search'; takesValue: ReadonlySet<string> };
const READERS: Readonly<Record<string, Reader>> = {
  cat: { kind: 'print', takesValue: new Set() },
  tac: { kind: 'print', takesValue: new Set() },
  bat: { kind: 'print', takesValue: new Set(['-l', '--language', '-r', '--line-range', '-H', '--highlight-line']) },
  less: { kind: 'print', takesValue: new Set() },
  more: { kind: 'print', takesValue: new Set() },
  nl: { kind: 'print', takesValue: new Set(['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']) },
  head: { kind: 'print', takesValue: new Set(['-n', '-c', '--lines', '--bytes']) },
  tail: { kind: 'print', takesValue: new Set(['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval']) },
  sed: { kind: 'sed', takesValue: new Set(['-e', '--expression', '-f', '--file', '-l', '--line-length']) },
  rg: {
    kind: 'search',
    takesValue: new Set(['-e', '--regexp', '-f', '--file', '-g', '--glob', '-t', '--type', '-T', '--type-not']),
  },
  grep: { kind: 'search', takesValue: new Set(['-e', '--regexp', '-f', '--file']) },
  egrep: { kind: 'search', takesValue: new Set(['-e', '--regexp', '-f', '--file']) },
  fgrep: { kind: 'search', takesValue: new Set(['-e', '--regexp', '-f', '--file']) },
};

/** Words that come before the command itself. */
const PREFIXES: ReadonlySet<string> = new Set(['sudo', 'command', 'time', 'nice', 'env', 'exec']);

/** A plain word that may be a path: no option, substitution, glob, URL or assignment. */
const PATH_WORD = /^[^\s\-$`*?[\]{}()<>|;&'"=][^\s$`*?[\]{}()<>|;&'"]*$/;
/** A last segment with an extension (`a.rs`, `gh-pages.yml`, `.env.local`), not `.` or `..`. */
const FILE_LIKE = /(?:^|\/)[^/]*[^./][^/]*\.[A-Za-z0-9_-]+$|(?:^|\/)\.[A-Za-z0-9_][^/]*$/;

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** The files one simple command (its words, redirections left out) reads, when its program is a reader. */
function readsOf(argv: readonly string[]): string[] {
  // The program is the first word that is neither a prefix (`sudo`, `env`) nor an assignment.
  const at = argv.findIndex((w) => !PREFIXES.has(w) && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const reader = at < 0 ? undefined : READERS[basename(itemAt(argv, at))];
  if (!reader) return [];
  const operands: string[] = [];
  let scriptGiven = false;
  let options = true;
  for (let i = at + 1; i < argv.length; i++) {
    const word = itemAt(argv, i);
    if (options && word === '--') {
      options = false;
      continue;
    }
    if (options && word.startsWith('-') && word.length > 1) {
      const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
      if (reader.kind === 'sed' && (name === '-i' || name.startsWith('-i') || name === '--in-place')) return [];
      if (reader.kind !== 'print' && ['-e', '--expression', '--regexp', '-f', '--file'].includes(name))
        scriptGiven = true;
      if (reader.takesValue.has(word)) i++;
      continue;
    }
    operands.push(word);
  }
  // sed's and a search's first operand is its script or pattern, unless -e or -f gave it.
  const files = reader.kind !== 'print' && !scriptGiven ? operands.slice(1) : operands;
  return files.filter(
    (w) => PATH_WORD.test(w) && !w.includes('://') && (reader.kind !== 'search' || FILE_LIKE.test(w)),
  );
}

/**
 * A script cut into its simple commands, each as its words with quotes removed. A word still
 * holding a substitution or expansion keeps its `$` or backquote, so no path test takes it.
 * Redirections (`> f`, `2>&1`, `< f`) are left out with their targets; a here-document's body is
 * skipped to its delimiter line.
 */
export function simpleCommands(script: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  /** The redirection waiting for its target word, and here-document delimiters waiting for the line's end. */
  let redirect: '' | 'file' | 'heredoc' = '';
  const heredocs: string[] = [];
  const endWord = () => {
    if (!inWord) return;
    if (redirect === 'heredoc') heredocs.push(word);
    else if (redirect === '') words.push(word);
    redirect = '';
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  for (let i = 0; i < script.length; i++) {
    const c = script.charAt(i);
    if (c === "'") {
      const close = script.indexOf("'", i + 1);
      if (close < 0) return commands; // unbalanced: nothing after it is read
      word += script.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < script.length && script[j] !== '"'; j++) {
        if (script[j] === '\\' && j + 1 < script.length) j++;
        word += script[j];
      }
      if (j >= script.length) return commands;
      inWord = true;
      i = j;
    } else if (c === '\\' && i + 1 < script.length) {
      if (script[i + 1] !== '\n') word += script[i + 1];
      inWord = inWord || script[i + 1] !== '\n';
      i++;
    } else if (c === '#' && !inWord) {
      while (i + 1 < script.length && script[i + 1] !== '\n') i++;
    } else if (c === '\n') {
      endCommand();
      // Here-documents begin on the next line: skip each body to its delimiter line.
      for (const delimiter of heredocs.splice(0)) {
        let next = script.indexOf('\n', i + 1);
        for (;;) {
          const line = script.slice(i + 1, next < 0 ? script.length : next);
          i = next < 0 ? script.length : next;
          if (line.replace(/^\t+/, '') === delimiter || next < 0) break;
          next = script.indexOf('\n', i + 1);
        }
      }
    } else if (c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      // `2>&1` and `&>` are redirections, not separators.
      if (c === '&' && (script[i - 1] === '>' || script[i + 1] === '>')) {
        endWord();
        redirect = 'file';
        if (script[i + 1] === '>') i++;
        if (/\d/.test(script[i + 1] ?? '')) {
          redirect = '';
          while (/\d/.test(script[i + 1] ?? '')) i++;
        }
        continue;
      }
      endCommand();
    } else if (c === '>' || c === '<') {
      // A word of digits just before is the redirected descriptor (`2>`), not an argument.
      if (inWord && /^\d+$/.test(word)) {
        word = '';
        inWord = false;
      } else endWord();
      if (c === '<' && script[i + 1] === '<' && script[i + 2] !== '<') {
        i++;
        if (script[i + 1] === '-') i++;
        redirect = 'heredoc';
      } else {
        while (script[i + 1] === '>' || script[i + 1] === '<') i++;
        if (script[i + 1] === '&') {
          i++;
          while (/[\d-]/.test(script[i + 1] ?? '')) i++;
          continue;
        }
        redirect = 'file';
      }
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}
