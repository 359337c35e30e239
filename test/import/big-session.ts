// A large Claude Code session made for timing the import (the e2e test and `npm run bench`).

/** A Claude Code session of about `bytes` bytes: one task, then read_file calls answered by ~4 KB files. */
export function bigSession(bytes: number): { text: string; turns: number } {
  const base = {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/p',
    sessionId: 'big',
    version: '2.0.61',
  };
  const lines = [
    JSON.stringify({ ...base, type: 'user', uuid: 'u0', message: { role: 'user', content: 'Fix the bug.' } }),
  ];
  const file = 'fn main() { println!("a line of a source file the agent read"); }\n'.repeat(60);
  let size = lines[0]!.length;
  let turns = 0;
  while (size < bytes) {
    turns++;
    const call = JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `a${turns}`,
      message: {
        id: `msg_${turns}`,
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: `toolu_${turns}`,
            name: 'Read',
            input: { file_path: `/home/dev/p/src/f${turns % 500}.rs` },
          },
        ],
      },
    });
    const result = JSON.stringify({
      ...base,
      type: 'user',
      uuid: `r${turns}`,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${turns}`, content: `${file}${turns}` }],
      },
    });
    lines.push(call, result);
    size += call.length + result.length + 2;
  }
  return { text: `${lines.join('\n')}\n`, turns };
}
