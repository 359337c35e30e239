// The providers' request bodies as their API references document them (checked 2026-12-03):
// Anthropic Messages (POST /v1/messages, platform.claude.com/docs/en/api/messages and the
// tool-use and prompt-caching guides) and OpenAI Chat Completions (POST /v1/chat/completions,
// platform.openai.com/docs/api-reference/chat/create and the function-calling guide). Objects are
// strict, so a key either API does not define fails; the refinements are the documented rules
// about order and pairing that a shape alone cannot say.
import { z } from 'zod';

const cacheControl = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() }).strict();
/** "text content blocks must be non-empty" */
const textBlock = z
  .object({ type: z.literal('text'), text: z.string().min(1), cache_control: cacheControl.optional() })
  .strict();
const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/);
const toolId = z.string().regex(/^[a-zA-Z0-9_-]+$/);
const toolUse = z
  .object({
    type: z.literal('tool_use'),
    id: toolId,
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
    cache_control: cacheControl.optional(),
  })
  .strict();
const toolResult = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: toolId,
    content: z.union([z.string(), z.array(textBlock)]).optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControl.optional(),
  })
  .strict();
const anthropicBlock = z.discriminatedUnion('type', [textBlock, toolUse, toolResult]);
const anthropicMessage = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string().min(1), z.array(anthropicBlock).min(1)]),
  })
  .strict();

type AnthropicMessage = z.infer<typeof anthropicMessage>;
const blocksOf = (m: AnthropicMessage) => (typeof m.content === 'string' ? [] : m.content);

export const AnthropicMessagesRequest = z
  .object({
    model: z.string().min(1),
    max_tokens: z.number().int().min(1),
    system: z.union([z.string(), z.array(textBlock)]).optional(),
    tools: z
      .array(
        z
          .object({
            name: toolName,
            description: z.string().optional(),
            input_schema: z
              .object({
                type: z.literal('object'),
                properties: z.record(z.string(), z.unknown()).optional(),
                required: z.array(z.string()).optional(),
              })
              .passthrough(),
            cache_control: cacheControl.optional(),
          })
          .strict(),
      )
      .optional(),
    messages: z.array(anthropicMessage).min(1),
  })
  .strict()
  .superRefine((body, ctx) => {
    const issue = (message: string, path: (string | number)[]) => ctx.addIssue({ code: 'custom', message, path });
    if (body.messages[0]!.role !== 'user') issue('the first message must use the user role', ['messages', 0, 'role']);
    const breakpoints = [...(Array.isArray(body.system) ? body.system : []), ...body.messages.flatMap(blocksOf)].filter(
      (b) => b.cache_control,
    ).length;
    if (breakpoints > 4) issue(`at most 4 blocks with cache_control, found ${breakpoints}`, ['messages']);
    const declared = new Set((body.tools ?? []).map((t) => t.name));
    body.messages.forEach((message, i) => {
      const blocks = blocksOf(message);
      const previous = i > 0 ? blocksOf(body.messages[i - 1]!) : [];
      const asked = new Set(
        body.messages[i - 1]?.role === 'assistant'
          ? previous.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
          : [],
      );
      let textSeen = false;
      blocks.forEach((block, j) => {
        if (block.type === 'tool_use') {
          if (message.role !== 'assistant')
            issue('tool_use blocks belong to assistant messages', ['messages', i, 'content', j]);
          if (!declared.has(block.name))
            issue(`tool_use names "${block.name}", which tools does not define`, ['messages', i, 'content', j, 'name']);
          const next = body.messages[i + 1];
          if (next && !blocksOf(next).some((b) => b.type === 'tool_result' && b.tool_use_id === block.id)) {
            issue(`tool_use ${block.id} has no tool_result in the next message`, ['messages', i, 'content', j]);
          }
        }
        if (block.type === 'tool_result') {
          if (message.role !== 'user')
            issue('tool_result blocks belong to user messages', ['messages', i, 'content', j]);
          if (!asked.has(block.tool_use_id))
            issue(`tool_result ${block.tool_use_id} does not answer a tool_use in the previous assistant message`, [
              'messages',
              i,
              'content',
              j,
            ]);
          if (textSeen)
            issue('tool_result blocks must come before any text in a user message', ['messages', i, 'content', j]);
        } else textSeen = true;
      });
    });
  });

const chatText = z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() }).strict())]);
const chatToolCall = z
  .object({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.object({ name: toolName, arguments: z.string() }).strict(),
  })
  .strict();
const chatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: chatText, name: z.string().optional() }).strict(),
  z.object({ role: z.literal('developer'), content: chatText, name: z.string().optional() }).strict(),
  z.object({ role: z.literal('user'), content: chatText, name: z.string().optional() }).strict(),
  z
    .object({
      role: z.literal('assistant'),
      content: z.union([chatText, z.null()]).optional(),
      tool_calls: z.array(chatToolCall).min(1).optional(),
      name: z.string().optional(),
      refusal: z.string().nullable().optional(),
    })
    .strict()
    .refine((m) => (m.content !== null && m.content !== undefined) || m.tool_calls !== undefined, {
      message: 'an assistant message needs content or tool_calls',
    }),
  z.object({ role: z.literal('tool'), content: chatText, tool_call_id: z.string().min(1) }).strict(),
]);

export const OpenAIChatRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(chatMessage).min(1),
    tools: z
      .array(
        z
          .object({
            type: z.literal('function'),
            function: z
              .object({
                name: toolName,
                description: z.string().optional(),
                parameters: z.record(z.string(), z.unknown()).optional(),
                strict: z.boolean().optional(),
              })
              .strict(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const issue = (message: string, path: (string | number)[]) => ctx.addIssue({ code: 'custom', message, path });
    // "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'."
    body.messages.forEach((message, i) => {
      if (message.role !== 'assistant' || !message.tool_calls) return;
      const answered = new Set<string>();
      for (let k = i + 1; k < body.messages.length && body.messages[k]!.role === 'tool'; k++)
        answered.add((body.messages[k] as { tool_call_id: string }).tool_call_id);
      message.tool_calls.forEach((call, j) => {
        if (!answered.has(call.id))
          issue(`tool call ${call.id} is not answered by the tool messages that follow`, [
            'messages',
            i,
            'tool_calls',
            j,
          ]);
        let args: unknown;
        try {
          args = JSON.parse(call.function.arguments);
        } catch {
          args = undefined;
        }
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          issue('arguments must be a JSON object', ['messages', i, 'tool_calls', j, 'function', 'arguments']);
      });
    });
    body.messages.forEach((message, i) => {
      if (message.role !== 'tool') return;
      let k = i - 1;
      while (k >= 0 && body.messages[k]!.role === 'tool') k--;
      const caller = body.messages[k];
      if (caller?.role !== 'assistant' || !caller.tool_calls?.some((c) => c.id === message.tool_call_id)) {
        issue(`tool message ${message.tool_call_id} does not follow the assistant message that called it`, [
          'messages',
          i,
        ]);
      }
    });
  });
