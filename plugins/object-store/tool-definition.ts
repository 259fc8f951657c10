/**
 * @module The shape the decorators and the platform library work on: a tool's prompt, its
 * parameters as valibot entries (what a model sees, after injection) and its handler. Register
 * one on a tool server with `server.addTool(tool.handler, { name, description, inputSchema:
 * v.object(tool.parameters) })`.
 */
import * as v from "valibot";

export type ParameterSchema = v.GenericSchema<any, any>;
export type Parameters = Record<string, ParameterSchema>;

export interface ToolDefinition<C = any> {
  /** The tool name on the wire (snake_case). */
  name: string;
  /** The tool's prompt. */
  description: string;
  parameters: Parameters;
  handler(args: Record<string, unknown>, ctx: C): Promise<unknown>;
}

/** The text of a `v.description(...)` in a schema's pipe (also inside `v.optional`). */
export function descriptionOf(schema: ParameterSchema): string | undefined {
  const pipe = (schema as { pipe?: { type: string; description?: string }[] }).pipe;
  const found = pipe?.find((item) => item.type === "description")?.description;
  if (found) return found;
  const wrapped = (schema as { wrapped?: ParameterSchema }).wrapped;
  return wrapped ? descriptionOf(wrapped) : undefined;
}

/** A readable, expected failure of a tool (bad input, not found, platform error). */
export class ToolError extends Error {}

/** The result a tool server shows as an error: the message alone, no stack. */
export function errorResult(message: string): { isError: true; content: { type: "text"; text: string }[] } {
  return { isError: true, content: [{ type: "text", text: message }] };
}

export function isErrorResult(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { isError?: unknown }).isError === true && Array.isArray((value as { content?: unknown }).content);
}
