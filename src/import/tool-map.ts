// Trace tool names -> the blueprint's tool names. Harnesses name their tools differently from the
// names the runtime's routing and file tracking know (`Read` is `read_file`); the user can change
// the table (the page's tool-map table, `lev import --tool-map Read=read_file,...`).
export type ToolMap = Readonly<Record<string, string>>;

/** The harnesses' tool names, mapped to the runtime's where they mean the same. Names not listed are kept. */
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
  apply_patch: 'edit_file',
  // Cline / Roo Code / Kilo Code
  write_to_file: 'write_file',
  replace_in_file: 'edit_file',
  apply_diff: 'edit_file',
  execute_command: 'shell',
  search_files: 'grep',
  list_files: 'list_dir',
  // Gemini CLI
  replace: 'edit_file',
  run_shell_command: 'shell',
  list_directory: 'list_dir',
  search_file_content: 'grep',
  google_web_search: 'web_search',
  // OpenHands, mini-swe-agent
  execute_bash: 'shell',
  bash: 'shell',
};

export function mapToolName(map: ToolMap, name: string): string {
  return (Object.hasOwn(map, name) ? map[name] : undefined) ?? name;
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
      throw new Error(
        `--tool-map entry ${i + 1} "${entry}": expected TRACE_NAME=BLUEPRINT_NAME (e.g. Read=read_file), or TRACE_NAME= to keep the name`,
      );
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
  if (key === undefined) {
    const path = patchPath(args);
    return path === undefined ? args : { path, ...args };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k === key ? 'path' : k] = v;
  return out;
}

/** The first file a patch names: `*** Update File: src/a.rs` (also Add and Delete). */
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m;

/**
 * The file an `apply_patch` call edits (Codex: the patch is the call's `input`, or the last word of
 * a `["apply_patch", PATCH]` command), so file tracking follows patches as it follows edits.
 */
function patchPath(args: Record<string, unknown>): string | undefined {
  const command = Array.isArray(args.command) ? args.command : [];
  const candidates = [args.input, args.patch, command[0] === 'apply_patch' ? command[1] : undefined];
  for (const text of candidates) {
    if (typeof text !== 'string' || !text.includes('*** Begin Patch')) continue;
    const match = PATCH_FILE.exec(text);
    if (match) return match[1]!.trim();
  }
  return undefined;
}
