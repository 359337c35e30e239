// Path rules for seeds and scripts: relative paths resolved against a root (the working directory or
// the agent directory) that they may not leave, and glob matching over an in-memory directory map.

const ABSOLUTE = /^(?:\/|\\|~|[A-Za-z]:[\\/])/;

/**
 * `./src/../lib.rs` -> `lib.rs`. Returns undefined when the path leaves its root: an absolute path,
 * `~`, or more `..` than there are directories above.
 */
export function normalizeRelative(path: string): string | undefined {
  if (ABSOLUTE.test(path)) return undefined;
  const out: string[] = [];
  for (const segment of path.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/**
 * A path outside the root written as the user would read it: `../shared/x.md`, `/etc/hosts`.
 * Used to compare against `[read_paths]` entries.
 */
export function normalizeAny(path: string): string {
  const absolute = ABSOLUTE.test(path);
  const head = absolute ? path.match(ABSOLUTE)![0].replace(/\\/g, '/') : '';
  const out: string[] = [];
  for (const segment of path.slice(head.length).split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (segment === '..' && absolute) continue;
    else out.push(segment);
  }
  return head + out.join('/');
}

/** True when `path` is `base` or inside it (both normalized with normalizeAny). */
export function isWithin(path: string, base: string): boolean {
  const b = base.replace(/\/+$/, '');
  return b === '' || path === b || path.startsWith(`${b}/`);
}

/** Zero or more whole directories, none of them `..`. */
const NOT_PARENT_DIRS = '(?:(?!\\.\\./)[^/]+/)*';
/** Asserts that no `..` segment follows (for a trailing `**`). */
const NOT_PARENT_REST = '(?!(?:[^]*/)?\\.\\.(?:/|$))';
/** Asserts that this segment is not `..` (for a `*` opening a segment). */
const NOT_PARENT_SEGMENT = '(?!\\.\\.(?:/|$))';

/**
 * `*` within a segment, `**` across segments, `?`, `[abc]` and `{a,b}`, on a pattern already
 * normalized (see matchGlob). No wildcard ever matches a `..` segment: `**\/*.toml` does not reach
 * `../secrets.toml`, only a pattern that spells out its leading `../` does.
 */
export function globToRegExp(normalized: string): RegExp {
  let re = '';
  let i = 0;
  let braces = 0;
  while (i < normalized.length) {
    const c = normalized.charAt(i);
    if (c === '*' && normalized[i + 1] === '*') {
      const slashAfter = normalized[i + 2] === '/';
      re += slashAfter ? NOT_PARENT_DIRS : `${NOT_PARENT_REST}.*`;
      i += slashAfter ? 3 : 2;
      continue;
    }
    if (c === '*') re += i === 0 || normalized[i - 1] === '/' ? `${NOT_PARENT_SEGMENT}[^/]*` : '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = normalized.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = normalized
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else if (c === '{') {
      re += '(?:';
      braces++;
    } else if (c === '}' && braces > 0) {
      re += ')';
      braces--;
    } else if (c === ',' && braces > 0) re += '|';
    else re += c.replace(/[.+^$()|\\]/g, '\\$&');
    i++;
  }
  re += ')'.repeat(braces);
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return /(?!)/; // a pattern we cannot compile matches nothing
  }
}

/**
 * The one glob matcher validate and a run share. The pattern and every path of the directory map
 * are normalized first (`src/../docs/*.md` is `docs/*.md`; a map key `./a/../b.md` is `b.md`), so
 * both see the same matches. Returns the matching paths normalized, sorted, without duplicates.
 */
export function matchGlob(pattern: string, files: Readonly<Record<string, string>>): string[] {
  const re = globToRegExp(normalizeAny(pattern));
  const matches = new Set<string>();
  for (const file of Object.keys(files)) {
    const path = normalizeAny(file);
    if (re.test(path)) matches.add(path);
  }
  return [...matches].sort(byPath);
}

export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
