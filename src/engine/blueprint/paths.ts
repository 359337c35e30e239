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
  const head = absolute ? (path.match(ABSOLUTE)![0].replace(/\\/g, '/')) : '';
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

const GLOB_CHARS = /[*?[{]/;

/**
 * Whether any expansion of a glob could leave its root. `*` stands for one directory and `**` for
 * none (the worst case), so `../*.toml` and `src/**\/../../x` are caught before expansion.
 */
export function globCanEscape(pattern: string): boolean {
  if (ABSOLUTE.test(pattern)) return true;
  let depth = 0;
  for (const segment of pattern.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (--depth < 0) return true;
    } else if (segment !== '**') depth++;
  }
  return false;
}

/** The part of a glob before its first wildcard segment: `../shared/*.md` -> `../shared`. */
export function globBase(pattern: string): string {
  const segments = pattern.split(/[\\/]+/);
  const literal: string[] = [];
  for (const segment of segments) {
    if (GLOB_CHARS.test(segment)) break;
    literal.push(segment);
  }
  return literal.join('/');
}

/** `*` within a segment, `**` across segments, `?`, `[abc]` and `{a,b}`. */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  let i = 0;
  let braces = 0;
  const normalized = pattern.replace(/\\/g, '/').replace(/^\.\//, '');
  while (i < normalized.length) {
    const c = normalized[i]!;
    if (c === '*' && normalized[i + 1] === '*') {
      const slashAfter = normalized[i + 2] === '/';
      re += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 3 : 2;
      continue;
    }
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = normalized.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = normalized.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else if (c === '{') { re += '(?:'; braces++; }
    else if (c === '}' && braces > 0) { re += ')'; braces--; }
    else if (c === ',' && braces > 0) re += '|';
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

/** Files of a directory map matching a glob, sorted for determinism. */
export function matchGlob(pattern: string, files: Record<string, string>): string[] {
  const re = globToRegExp(pattern);
  return Object.keys(files).filter((f) => re.test(f.replace(/\\/g, '/').replace(/^\.\//, ''))).sort();
}
