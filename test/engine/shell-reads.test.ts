// The files a shell call reads (read again later sees them): the commands are real ones, read from
// the project's committed Codex and Claude Code fixtures (test/import/fixtures/real, SOURCES.md
// there), and what each reads is what the command itself says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shellReads, simpleCommands } from '../../src/engine/shell-reads.ts';

const FIXTURES = 'test/import/fixtures/real';
const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(`${FIXTURES}/${file}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Every shell call's arguments in a Codex rollout, as written (`function_call` payloads). */
function codexShellCalls(file: string): Record<string, unknown>[] {
  return lines(file).flatMap((line) => {
    const payload = line.payload as { type?: string; name?: string; arguments?: string } | undefined;
    return payload?.type === 'function_call' && /^shell/.test(payload.name ?? '')
      ? [JSON.parse(payload.arguments!) as Record<string, unknown>]
      : [];
  });
}

/** Every Bash call's input in a Claude Code session. */
function claudeBashCalls(file: string): Record<string, unknown>[] {
  return lines(file).flatMap((line) => {
    const content = (line.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((block: { type?: string; name?: string; input?: Record<string, unknown> }) =>
      block.type === 'tool_use' && block.name === 'Bash' ? [block.input!] : [],
    );
  });
}

const scriptOf = (args: Record<string, unknown>): string => {
  const command = args.command;
  return Array.isArray(command) ? String(command[command.length - 1]) : String(command);
};

describe('shellReads on the commands of the real fixtures', () => {
  // Each script of the fixtures, and the files it reads by what the command says.
  const EXPECTED: [RegExp, string[]][] = [
    [/^ls -la$/, []],
    [/^ls$/, []],
    [/^sed -n '1,200p' plan\.md$/, ['plan.md']],
    [/^sed -n '1,240p' \.github\/workflows\/gh-pages\.yml$/, ['.github/workflows/gh-pages.yml']],
    // rg searches the directory opk: its output is matches, not a file's content.
    [/^ls -la opk && rg -n "TODO\|FIXME\|@draft\|@todo" -S opk \|\| true$/, []],
    // A patch given as a here-document: its body (paths included) is the patch, not a command.
    [/^apply_patch << 'PATCH'\n\*\*\* Begin Patch\n/, []],
    [/^git add README\.md \.github\/workflows\/ci\.yml && git commit -m /, []],
    [/^git push origin main$/, []],
    [/^mkdir -p tests$/, []],
  ];

  const calls = [
    ...codexShellCalls('codex-0.34-first-calls.jsonl'),
    ...codexShellCalls('codex-0.34-cache-expiry.jsonl'),
    ...codexShellCalls('codex-0.63-first-calls.jsonl'),
    ...claudeBashCalls('claude-code-2.0.72-cache-expiry.jsonl'),
  ];

  it('finds every shell call of the fixtures, in both of their argument shapes', () => {
    // Codex 0.34 passes argv (`["bash", "-lc", script]`); Codex 0.63 and Claude Code a string.
    expect(calls.length).toBe(11);
    expect(calls.filter((c) => Array.isArray(c.command)).length).toBe(8);
  });

  for (const [index, call] of calls.entries()) {
    const script = scriptOf(call);
    it(`reads what the command says: ${JSON.stringify(script.slice(0, 60))} (call ${index + 1})`, () => {
      const expected = EXPECTED.find(([pattern]) => pattern.test(script));
      expect(expected, `no expectation written for ${script.slice(0, 80)}`).toBeDefined();
      expect(shellReads(call)).toEqual(expected![1]);
    });
  }

  it('the patch here-document is skipped to its delimiter, and the command after it is read', () => {
    const patch = scriptOf(codexShellCalls('codex-0.34-cache-expiry.jsonl')[0]!);
    expect(patch).toContain('docs/overview.md');
    expect(simpleCommands(patch)).toEqual([['apply_patch']]);
    expect(shellReads({ command: `${patch}\ncat docs/overview.md` })).toEqual(['docs/overview.md']);
  });
});

describe("shellReads on mini-swe-agent's and Claude Code's commands", () => {
  // Verbatim from the committed mini-swe-agent trajectories (its prompt's example and a real run).
  const local = readFileSync(`${FIXTURES}/mini-swe-agent-local.traj.json`, 'utf8');
  const issue = readFileSync(`${FIXTURES}/mini-swe-agent-github-issue.traj.json`, 'utf8');

  it('nl prints its file; sed reading the pipe reads no file', () => {
    const command = "nl -ba filename.py | sed -n '10,20p'";
    expect(local).toContain(command);
    expect(shellReads({ command })).toEqual(['filename.py']);
  });

  it('cat reads its operand, and a cat that writes through a redirection reads nothing', () => {
    expect(issue).toContain('cat tests/missing_colon.py');
    expect(shellReads({ command: 'cat tests/missing_colon.py' })).toEqual(['tests/missing_colon.py']);
    expect(issue).toContain("cat > tests/missing_colon.py << 'EOF'");
    const write = "cat > tests/missing_colon.py << 'EOF'\ndef division(a, b):\n    return a / b\nEOF";
    expect(shellReads({ command: write })).toEqual([]);
  });

  it('a prefix and a redirected descriptor do not hide the file (a Claude Code Bash call of M-Claude, CC0)', () => {
    expect(
      shellReads({ command: 'sudo cat ./M-Claude-Code/.github/workflows/generate-markdown.yml 2>/dev/null' }),
    ).toEqual(['./M-Claude-Code/.github/workflows/generate-markdown.yml']);
  });

  it('takes options with values apart from files, and leaves sed -i (an edit) and expansions out', () => {
    expect(shellReads({ cmd: 'head -n 50 src/main.rs && tail -20 src/lib.rs' })).toEqual(['src/main.rs', 'src/lib.rs']);
    expect(shellReads({ cmd: "sed -i 's/a/b/' src/main.rs" })).toEqual([]);
    expect(shellReads({ cmd: 'sed -e 1d -n src/a.py' })).toEqual(['src/a.py']);
    expect(shellReads({ cmd: 'cat "$FILE" src/*.rs $(git ls-files)' })).toEqual([]);
    expect(shellReads({ cmd: "rg -n 'fn main' src/main.rs src -g '*.rs'" })).toEqual(['src/main.rs']);
    expect(shellReads({ command: ['cat', 'Makefile'] })).toEqual(['Makefile']);
  });
});
