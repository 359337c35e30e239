// The request a blueprint builds, as provider API bodies a user can send as they are: Anthropic
// Messages (system blocks in the engine's order, cache_control where the runtime places its
// breakpoints, tool_use/tool_result pairs) and OpenAI Chat Completions. Pure: page, worker and CLI.
import {
  anthropicBreakpoints,
  type Model,
  type AssembledRequest,
  type RequestMessage,
  type ToolCall,
  itemAt,
} from '../engine/page.ts';

export const EXPORT_FORMATS = ['anthropic', 'openai'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** API model ids for the built-in models (the playground's ids name a family, the APIs an alias). */
const ANTHROPIC_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-sonnet-4': 'claude-sonnet-4-0',
  'claude-opus-4': 'claude-opus-4-0',
  'claude-3-5-haiku': 'claude-3-5-haiku-latest',
};
const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-0';
const DEFAULT_OPENAI_MODEL = 'gpt-4o';
/** Room for the reply; Anthropic requires `max_tokens`. */
export const EXPORT_MAX_TOKENS = 8192;

/**
 * Anthropic needs the first message to be a user turn. When the blueprint's request opens with an
 * assistant turn (the task lives in a system region), this line leads; nothing else is added.
 */
export const ANTHROPIC_LEAD_TEXT = '(The task and context are in the system prompt.)';

type CacheControl = { type: 'ephemeral' };
type AnthropicText = { type: 'text'; text: string; cache_control?: CacheControl };
type AnthropicToolUse = {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: CacheControl;
};
type AnthropicToolResult = {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: true;
  cache_control?: CacheControl;
};
type AnthropicBlock = AnthropicText | AnthropicToolUse | AnthropicToolResult;

export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: AnthropicText[];
  tools?: { name: string; description: string; input_schema: { type: 'object'; properties: Record<string, object> } }[];
  messages: { role: 'user' | 'assistant'; content: AnthropicBlock[] }[];
}

export interface OpenAIChatBody {
  model: string;
  tools?: {
    type: 'function';
    function: { name: string; description: string; parameters: { type: 'object'; properties: Record<string, object> } };
  }[];
  messages: (
    | { role: 'system'; content: string }
    | { role: 'user'; content: string }
    | {
        role: 'assistant';
        content: string | null;
        tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
      }
    | { role: 'tool'; tool_call_id: string; content: string }
  )[];
}

/** Every tool the request's messages call, with the argument names seen, in first-call order. */
function toolsCalled(messages: readonly RequestMessage[]): { name: string; properties: Record<string, object> }[] {
  const tools = new Map<string, Record<string, object>>();
  for (const call of messages.flatMap((m) => m.tool_calls ?? [])) {
    const properties = tools.get(call.name) ?? {};
    for (const key of Object.keys(call.arguments)) properties[key] = {};
    tools.set(call.name, properties);
  }
  return [...tools].map(([name, properties]) => ({ name, properties }));
}

const TOOL_DESCRIPTION = 'A tool the replayed run called (its schema lists the argument names seen).';

function anthropicModel(model: Model): string {
  return model.provider === 'anthropic' ? (ANTHROPIC_MODEL_IDS[model.id] ?? model.id) : DEFAULT_ANTHROPIC_MODEL;
}

function assistantBlocks(message: RequestMessage): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = message.content.length > 0 ? [{ type: 'text', text: message.content }] : [];
  for (const call of message.tool_calls ?? []) blocks.push(toolUse(call));
  return blocks;
}

const toolUse = (call: ToolCall): AnthropicToolUse => ({
  type: 'tool_use',
  id: call.id,
  name: call.name,
  input: call.arguments,
});

/**
 * The Anthropic Messages body. Each engine block (a system region, a message) maps to one system
 * block or to the last content block of its message, and carries `cache_control` when the runtime
 * puts a breakpoint there. Results and user text that follow each other share one user message,
 * results first (the API's rule); an assistant turn with no text and no calls is left out.
 */
export function anthropicBody(request: AssembledRequest, model: Model): AnthropicBody {
  const breakpoints = new Set(anthropicBreakpoints(request.system.length + request.messages.length));
  const system: AnthropicText[] = request.system.map((block, i) =>
    breakpoints.has(i)
      ? { type: 'text', text: block.text, cache_control: { type: 'ephemeral' } }
      : { type: 'text', text: block.text },
  );
  const messages: AnthropicBody['messages'] = [];
  request.messages.forEach((message, i) => {
    const blocks: AnthropicBlock[] =
      message.role === 'assistant'
        ? assistantBlocks(message)
        : message.role === 'tool'
          ? [
              {
                type: 'tool_result',
                tool_use_id: message.tool_call_id!,
                content: message.content,
                ...(message.is_error ? { is_error: true as const } : {}),
              },
            ]
          : message.content.length > 0
            ? [{ type: 'text', text: message.content }]
            : [];
    if (blocks.length === 0) return;
    if (breakpoints.has(request.system.length + i))
      itemAt(blocks, blocks.length - 1).cache_control = { type: 'ephemeral' };
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = messages.at(-1);
    if (last?.role === role && (role === 'user' ? canFollow(last.content, blocks) : true)) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  });
  if (messages[0]?.role !== 'user')
    messages.unshift({ role: 'user', content: [{ type: 'text', text: ANTHROPIC_LEAD_TEXT }] });
  const tools = toolsCalled(request.messages);
  return {
    model: anthropicModel(model),
    max_tokens: EXPORT_MAX_TOKENS,
    ...(system.length ? { system } : {}),
    ...(tools.length
      ? {
          tools: tools.map((t) => ({
            name: t.name,
            description: TOOL_DESCRIPTION,
            input_schema: { type: 'object' as const, properties: t.properties },
          })),
        }
      : {}),
    messages,
  };
}

/** In one user message, tool results come before any text: a result may not follow text. */
function canFollow(existing: readonly AnthropicBlock[], next: readonly AnthropicBlock[]): boolean {
  return !(next[0]?.type === 'tool_result' && existing.some((b) => b.type === 'text'));
}

/** The OpenAI Chat Completions body: one system message per system block, in order, then the messages. */
export function openaiChatBody(request: AssembledRequest, model: Model): OpenAIChatBody {
  const messages: OpenAIChatBody['messages'] = request.system.map((block) => ({ role: 'system', content: block.text }));
  for (const message of request.messages) {
    if (message.role === 'tool')
      messages.push({ role: 'tool', tool_call_id: message.tool_call_id!, content: message.content });
    else if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.tool_calls?.length) {
      messages.push({
        role: 'assistant',
        content: message.content.length > 0 ? message.content : null,
        tool_calls: message.tool_calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      });
    } else messages.push({ role: 'assistant', content: message.content });
  }
  const tools = toolsCalled(request.messages);
  return {
    model: model.provider === 'openai' ? model.id : DEFAULT_OPENAI_MODEL,
    ...(tools.length
      ? {
          tools: tools.map((t) => ({
            type: 'function' as const,
            function: {
              name: t.name,
              description: TOOL_DESCRIPTION,
              parameters: { type: 'object' as const, properties: t.properties },
            },
          })),
        }
      : {}),
    messages,
  };
}

export function requestBody(
  format: ExportFormat,
  request: AssembledRequest,
  model: Model,
): AnthropicBody | OpenAIChatBody {
  return format === 'anthropic' ? anthropicBody(request, model) : openaiChatBody(request, model);
}
