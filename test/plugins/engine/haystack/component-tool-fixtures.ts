/**
 * @module The components of Haystack's test_component_tool.py shared by the port's files. A Python
 * dataclass is a valibot object schema titled with `v.title`; a run docstring's `:param x:` is the
 * socket's `v.description`.
 */
import * as v from "valibot";
import { Component, Document, output, socket } from "svc/engine";

/** Haystack's SimpleComponent: greets `text`; counts its warm-ups. */
export class SimpleComponent extends Component {
  static override readonly type = "test.SimpleComponent";
  warmUps = 0;
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { text: socket(v.pipe(v.string(), v.description("user's name"))) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  warmUp() {
    this.warmUps++;
  }
  run(inputs: { text: string }) {
    return { reply: `Hello, ${inputs.text}!` };
  }
}

/** Haystack's `User` dataclass. */
export const User = v.pipe(v.object({ name: v.optional(v.string(), "Anonymous"), age: v.optional(v.pipe(v.number(), v.integer()), 0) }), v.title("User"));

export class UserGreeter extends Component {
  static override readonly type = "test.UserGreeter";
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { user: socket(v.pipe(User, v.description("The User object to process."))) };
  }
  protected outputSpecs() {
    return { message: output(v.string()) };
  }
  run(inputs: { user: v.InferOutput<typeof User> }) {
    return { message: `User ${inputs.user.name} is ${inputs.user.age} years old` };
  }
}

export class ListProcessor extends Component {
  static override readonly type = "test.ListProcessor";
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { texts: socket(v.pipe(v.array(v.string()), v.description("The list of strings to concatenate."))) };
  }
  protected outputSpecs() {
    return { concatenated: output(v.string()) };
  }
  run(inputs: { texts: string[] }) {
    return { concatenated: inputs.texts.join(" ") };
  }
}

/** Haystack's `Address` and `Person` dataclasses. */
export const Address = v.pipe(v.object({ street: v.string(), city: v.string() }), v.title("Address"));
export const Person = v.pipe(v.object({ name: v.string(), address: Address }), v.title("Person"));

export class PersonProcessor extends Component {
  static override readonly type = "test.PersonProcessor";
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { person: socket(v.pipe(Person, v.description("The Person to process."))) };
  }
  protected outputSpecs() {
    return { info: output(v.string()) };
  }
  run(inputs: { person: v.InferOutput<typeof Person> }) {
    return { info: `${inputs.person.name} lives at ${inputs.person.address.street}, ${inputs.person.address.city}.` };
  }
}

export class DocumentProcessor extends Component {
  static override readonly type = "test.DocumentProcessor";
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return {
      documents: socket(v.pipe(v.array(v.instance(Document)), v.description("List of Documents whose content will be concatenated"))),
      top_k: socket(v.pipe(v.number(), v.integer(), v.description("The number of top documents to concatenate")), { default: 5 }),
    };
  }
  protected outputSpecs() {
    return { concatenated: output(v.string()) };
  }
  run(inputs: { documents: Document[]; top_k: number }) {
    return { concatenated: inputs.documents.slice(0, inputs.top_k).flatMap((d) => (d.content ? [d.content] : [])).join("\n") };
  }
}
