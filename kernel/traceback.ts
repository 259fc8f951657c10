/**
 * @module The `showTracebacks` setting's one rule: an error's stack reaches a client (an error
 * body, a stream's error event, an MCP tool result, a span tag) only when the operator enabled it.
 */

/** `error`'s stack when tracebacks are shown and it has one; otherwise undefined. */
export function tracebackOf(error: unknown, showTracebacks: boolean): string | undefined {
  return showTracebacks && error instanceof Error && error.stack ? error.stack : undefined;
}

/** `message`, with `error`'s stack on the lines after it when tracebacks are shown. */
export function withTraceback(message: string, error: unknown, showTracebacks: boolean): string {
  const stack = tracebackOf(error, showTracebacks);
  return stack ? `${message}\n${stack}` : message;
}
