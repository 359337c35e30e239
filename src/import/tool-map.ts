// Trace tool names -> the blueprint's tool names. Harnesses name their tools differently from the
// names the runtime's routing and file tracking know (`Read` is `read_file`); the user can change
// the table (the page's tool-map table, `lev import --tool-map Read=read_file,...`).
export type ToolMap = Readonly<Record<string, string>>;

/** Claude Code's and Codex CLI's tool names, mapped to the runtime's. Names not listed are kept. */
export const DEFAULT_TOOL_MAP: ToolMap = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Bash: 'shell',
  Grep: 'grep',
  Glob: 'glob',
  LS: 'list_dir',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  exec_command: 'shell',
  shell_command: 'shell',
};

export function mapToolName(map: ToolMap, name: string): string {
  return Object.hasOwn(map, name) ? map[name]! : name;
}

/**
 * `Read=read_file,Bash=shell`: entries added to (or replacing) DEFAULT_TOOL_MAP. `Name=` keeps a
 * name unmapped. Throws with the entry and what was expected when one is malformed.
 */
export function parseToolMap(text: string, base: ToolMap = DEFAULT_TOOL_MAP): ToolMap {
  const map: Record<string, string> = { ...base };
  for (const [i, raw] of text.split(',').entries()) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const from = eq < 0 ? '' : entry.slice(0, eq).trim();
    const to = eq < 0 ? '' : entry.slice(eq + 1).trim();
    if (from === '' || /[\s=]/.test(to)) {
      throw new Error(`--tool-map entry ${i + 1} "${entry}": expected TRACE_NAME=BLUEPRINT_NAME (e.g. Read=read_file), or TRACE_NAME= to keep the name`);
    }
    map[from] = to === '' ? from : to;
  }
  return map;
}

/** Argument names harnesses use for the file a call touches; the runtime reads `path`. */
const PATH_ARGUMENTS = ['file_path', 'filePath', 'notebook_path'];

/**
 * The call's arguments with the file it names under `path` (routing keys and file_tracking read
 * `arguments.path`), renamed from `file_path` and the like when `path` is not given.
 */
export function normalizeArguments(args: Record<string, unknown>): Record<string, unknown> {
  if (typeof args.path === 'string') return args;
  const key = PATH_ARGUMENTS.find((k) => typeof args[k] === 'string');
  if (key === undefined) return args;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k === key ? 'path' : k] = v;
  return out;
}
