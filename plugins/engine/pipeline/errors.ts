/**
 * @module Pipeline errors, named, related and worded as Haystack 3's (haystack.core.errors).
 * Haystack raises Python's ValueError for bad run data and unknown names; svc has a `ValueError`
 * class for those cases (`PipelineInputError`, the run-data kind, is one), so a port of
 * Haystack's checks catches the same class. Like Haystack's, `PipelineRuntimeError` is not a
 * `PipelineError`.
 */
import { messageOf } from "svc/plugin";

/** A dotted type string's class name, as Haystack's messages name a component's type. */
const className = (type: string | null) => (type ? type.slice(type.lastIndexOf(".") + 1) : type);

/** Haystack's (Python's) ValueError: a bad argument, an unknown component or input. */
export class ValueError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ValueError";
  }
}

/** The run data does not fit the pipeline (unknown names, a missing mandatory input): Haystack's ValueError. */
export class PipelineInputError extends ValueError {
  constructor(message: string) {
    super(message);
    this.name = "PipelineInputError";
  }
}

export class PipelineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipelineError";
  }
}

/** Building the graph failed: an unknown socket, incompatible types, a second sender, a self-connection. */
export class PipelineConnectError extends PipelineError {
  constructor(message: string) {
    super(message);
    this.name = "PipelineConnectError";
  }
}

/** Something that is not a component was added. */
export class PipelineValidationError extends PipelineError {
  constructor(message: string) {
    super(message);
    this.name = "PipelineValidationError";
  }
}

export class PipelineMaxComponentRuns extends PipelineError {
  constructor(name: string, max: number) {
    super(`Maximum run count ${max} reached for component '${name}'`);
    this.name = "PipelineMaxComponentRuns";
  }
}

/** A YAML/dict definition that cannot be read as a pipeline. */
export class PipelineUnmarshalError extends PipelineError {
  constructor(message: string) {
    super(message);
    this.name = "PipelineUnmarshalError";
  }
}

/** A component failed while running, returned something that is not an object, or a conversion between two failed. */
export class PipelineRuntimeError extends Error {
  constructor(
    readonly componentName: string | null,
    readonly componentType: string | null,
    cause: unknown,
    message = `The following component failed to run:\nComponent name: '${componentName}'\nComponent type: '${className(componentType)}'\nError: ${messageOf(cause)}`,
  ) {
    super(message, { cause });
    this.name = "PipelineRuntimeError";
  }

  /** Haystack's `from_invalid_output`. */
  static invalidOutput(componentName: string, componentType: string, output: unknown): PipelineRuntimeError {
    const kind = output === null || output === undefined ? "NoneType" : Array.isArray(output) ? "list" : typeof output === "string" ? "str" : typeof output;
    return new PipelineRuntimeError(
      componentName,
      componentType,
      undefined,
      `The following component returned an invalid output:\nComponent name: '${componentName}'\nComponent type: '${className(componentType)}'\nExpected a dictionary, but got ${kind} instead.\nCheck the component's output and ensure it is a valid dictionary.`,
    );
  }
}

/** Nothing can run at the start: no component has its mandatory inputs. */
export class PipelineComponentsBlockedError extends PipelineRuntimeError {
  constructor() {
    super(
      null,
      null,
      undefined,
      "Cannot run pipeline - all components are blocked. This typically happens when:\n1. There is no valid entry point for the pipeline\n2. There is a circular dependency preventing the pipeline from running\nCheck the connections between these components and ensure all required inputs are provided.",
    );
    this.name = "PipelineComponentsBlockedError";
  }
}

/** A component's init parameters cannot be read (Haystack's DeserializationError). */
export class DeserializationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DeserializationError";
  }
}

/** A value cannot be serialized (Haystack's SerializationError). */
export class SerializationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SerializationError";
  }
}
