import { describe, expect, it } from 'vitest';
import { matchGlob, normalizeAny, normalizeRelative } from '../../../src/engine/blueprint/paths.ts';
import { commandIsSafe, readPathCovering } from '../../../src/engine/blueprint/policy.ts';
import { closest, didYouMean, editDistance } from '../../../src/engine/blueprint/suggest.ts';

describe('paths', () => {
  it('normalizeRelative keeps paths inside their root and refuses the rest', () => {
    expect(normalizeRelative('./src/../lib.rs')).toBe('lib.rs');
    expect(normalizeRelative('a//b/./c')).toBe('a/b/c');
    expect(normalizeRelative('a\\b')).toBe('a/b');
    expect(normalizeRelative('../x')).toBeUndefined();
    expect(normalizeRelative('a/../../x')).toBeUndefined();
    expect(normalizeRelative('/etc/passwd')).toBeUndefined();
    expect(normalizeRelative('~/.ssh/id_rsa')).toBeUndefined();
    expect(normalizeRelative('C:\\Windows')).toBeUndefined();
  });

  it('normalizeAny keeps leading .. and absolute roots', () => {
    expect(normalizeAny('../shared/./x/../y.md')).toBe('../shared/y.md');
    expect(normalizeAny('/etc/../etc/hosts')).toBe('/etc/hosts');
    expect(normalizeAny('../../a')).toBe('../../a');
  });

  it('matchGlob: *, **, ?, [..] and {a,b}', () => {
    const files = {
      'README.md': '',
      'src/lib.rs': '',
      'src/a/b/deep.rs': '',
      'src/main.ts': '',
      'docs/x1.md': '',
      'docs/x2.md': '',
    };
    expect(matchGlob('src/**/*.rs', files)).toEqual(['src/a/b/deep.rs', 'src/lib.rs']);
    expect(matchGlob('src/*.rs', files)).toEqual(['src/lib.rs']);
    expect(matchGlob('**/*.md', files)).toEqual(['README.md', 'docs/x1.md', 'docs/x2.md']);
    expect(matchGlob('docs/x?.md', files)).toEqual(['docs/x1.md', 'docs/x2.md']);
    expect(matchGlob('docs/x[2].md', files)).toEqual(['docs/x2.md']);
    expect(matchGlob('src/*.{rs,ts}', files)).toEqual(['src/lib.rs', 'src/main.ts']);
    expect(matchGlob('./README.md', files)).toEqual(['README.md']);
    expect(matchGlob('src/[', files)).toEqual([]);
  });

  it('matchGlob normalizes the pattern and the paths first: `src/../docs/*.md` is `docs/*.md`', () => {
    const files = { 'docs/a.md': '', './docs/b.md': '', 'src/x/../../docs/c.md': '', 'src/a.md': '' };
    expect(matchGlob('src/../docs/*.md', files)).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md']);
    expect(matchGlob('./docs/../src/*.md', files)).toEqual(['src/a.md']);
  });

  it('matchGlob: no wildcard crosses `..`; only a pattern that spells out `../` reaches the parent', () => {
    const files = { 'a.toml': '', 'src/b.toml': '', '../secrets.toml': '', '../up/c.toml': '', '../../root.toml': '' };
    expect(matchGlob('**/*.toml', files)).toEqual(['a.toml', 'src/b.toml']);
    expect(matchGlob('**', files)).toEqual(['a.toml', 'src/b.toml']);
    expect(matchGlob('*/*.toml', files)).toEqual(['src/b.toml']);
    expect(matchGlob('../*.toml', files)).toEqual(['../secrets.toml']);
    expect(matchGlob('../**/*.toml', files)).toEqual(['../secrets.toml', '../up/c.toml']);
    expect(matchGlob('../../*.toml', files)).toEqual(['../../root.toml']);
  });
});

describe('policy', () => {
  it('commandIsSafe: whole-word prefixes, exact entries, no shell operators', () => {
    const allow = ['git log', 'ls'];
    expect(commandIsSafe('git log --oneline -20', allow)).toBe(true);
    expect(commandIsSafe('  git   log  ', allow)).toBe(true);
    expect(commandIsSafe('ls', allow)).toBe(true);
    expect(commandIsSafe('lsof', allow)).toBe(false);
    expect(commandIsSafe('git logx', allow)).toBe(false);
    expect(commandIsSafe('git log && curl evil', allow)).toBe(false);
    expect(commandIsSafe('git log | sh', allow)).toBe(false);
    expect(commandIsSafe('git log $(whoami)', allow)).toBe(false);
    expect(commandIsSafe('git log > out', ['git log > out'])).toBe(true);
    expect(commandIsSafe('anything', ['', '  '])).toBe(false);
  });

  it('readPathCovering: directory entries cover what is below them', () => {
    expect(readPathCovering('../shared/rules.md', ['../shared'])).toBe('../shared');
    expect(readPathCovering('../shared/rules.md', ['../shared/'])).toBe('../shared/');
    expect(readPathCovering('../sharedx/rules.md', ['../shared'])).toBeUndefined();
    expect(readPathCovering('/etc/hosts', ['/etc/hosts'])).toBe('/etc/hosts');
    expect(readPathCovering('../a/../b/x', ['../b'])).toBe('../b');
  });
});

describe('did-you-mean', () => {
  it('edit distance counts transpositions as one', () => {
    expect(editDistance('budget', 'budegt')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests close names, hyphen and case variants, and containment', () => {
    expect(closest('per-item', ['per_item', 'bulk', 'compact'])).toBe('per_item');
    expect(closest('Pinned', ['pinned', 'temporary'])).toBe('pinned');
    expect(closest('caller_input', ['files', 'glob', 'literal', 'command', 'rhai', 'caller'])).toBe('caller');
    expect(closest('sliding', ['pinned', 'sliding_window'])).toBe('sliding_window');
    expect(closest('zzzzzz', ['pinned', 'temporary'])).toBeUndefined();
    expect(didYouMean('budgte', ['budget'])).toBe(' Did you mean "budget"?');
    expect(didYouMean('x', ['budget'])).toBe('');
  });
});
