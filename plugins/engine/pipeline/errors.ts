/**
 * @module Pipeline errors, named and worded after Haystack's.
 */
import { messageOf } from "svc";

export class PipelineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipelineError";
  }
}

/** Building the graph failed: an unknown component or socket, incompatible types, a second sender. */
export class PipelineConnectError extends PipelineError {
  constructor(message: string) {
    super(message);
    this.name = "PipelineConnectError";
  }
}

/** The run data does not fit the pipeline (unknown names, a missing mandatory input). */
export class PipelineInputError extends PipelineError {
  constructor(message: string) {
    super(message);
    this.name = "PipelineInputError";
  }
}

/** A component failed while running; names it and its type. */
export class PipelineRuntimeError extends PipelineError {
  constructor(
    readonly componentName: string,
    readonly componentType: string,
    cause: unknown,
    message = `The following component failed to run:\nComponent name: '${componentName}'\nComponent type: '${componentType}'\nError: ${messageOf(cause)}`,
  ) {
    super(message, { cause });
    this.name = "PipelineRuntimeError";
  }
}

/** Nothing can run at the start: no component has its mandatory inputs. */
export class PipelineComponentsBlockedError extends PipelineError {
  constructor() {
    super("Cannot run pipeline - all components are blocked. This typically happens when no component can run because its mandatory inputs are not satisfied and it has no trigger.");
    this.name = "PipelineComponentsBlockedError";
  }
}

export class PipelineMaxComponentRuns extends PipelineError {
  constructor(name: string, max: number) {
    super(`Maximum run count ${max} reached for component '${name}'`);
    this.name = "PipelineMaxComponentRuns";
  }
}
