/**
 * @module Test doubles for the ports of Haystack's test_agent.py and test_toolset.py: Haystack's
 * MockChatGenerator (fixed or cycling replies, recording what it was called with), its fixture
 * tools (`weather_tool`, the `parrot` ComponentTool) and a span-recording tracer.
 */
import * as v from "valibot";
import { Logger, NOOP_TRACER, type Span, type Tags, type TagValue, type Tracer } from "svc/plugin";
import { ChatMessage, Component, ComponentTool, PromptBuilder, Tool, output, socket, type ComponentContext } from "svc/engine";

export const WEATHER: Record<string, Record<string, unknown>> = {
  berlin: { weather: "mostly sunny", temperature: 7, unit: "celsius" },
  paris: { weather: "mostly cloudy", temperature: 8, unit: "celsius" },
  rome: { weather: "sunny", temperature: 14, unit: "celsius" },
};
export function weatherFunction(args: Record<string, any>) {
  for (const [city, result] of Object.entries(WEATHER)) if (String(args.location).toLowerCase().includes(city)) return result;
  return { weather: "unknown", temperature: 0, unit: "celsius" };
}
export const weatherTool = (fn: (args: Record<string, any>) => unknown = weatherFunction) =>
  new Tool({ name: "weather_tool", description: "Provides weather information for a given location.", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] }, function: fn });
export const componentTool = () => new ComponentTool({ name: "parrot", description: "This is a parrot.", component: new PromptBuilder({ template: "{{parrot}}" }) });

type Response = string | ChatMessage;
const asMessage = (r: Response) => (typeof r === "string" ? ChatMessage.fromAssistant(r) : r);

/** Haystack's MockChatGenerator: one reply each call, cycling through `responses`. `tools: false` drops the tools input. */
export class MockChat extends Component {
  static override readonly type = "test.MockChatGenerator";
  readonly calls: Record<string, unknown>[] = [];
  warmUps = 0;
  closes = 0;
  private readonly responses: ChatMessage[];
  constructor(
    responses: Response | Response[] = "Hello",
    private readonly options: { tools?: boolean; emptyForNoMessages?: boolean } = {},
  ) {
    super({});
    this.responses = (Array.isArray(responses) ? responses : [responses]).map(asMessage);
  }
  protected inputSpecs() {
    return {
      messages: socket(v.array(v.instance(ChatMessage))),
      ...(this.options.tools === false ? {} : { tools: socket(v.any(), { default: null }) }),
      streaming_callback: socket(v.any(), { default: null }),
      generation_kwargs: socket(v.any(), { default: null }),
    };
  }
  protected outputSpecs() {
    return { replies: output(v.array(v.instance(ChatMessage))) };
  }
  warmUp() {
    this.warmUps++;
  }
  close() {
    this.closes++;
  }
  async run(inputs: Record<string, unknown>, _ctx: ComponentContext) {
    this.calls.push({ ...inputs, messages: [...(inputs.messages as ChatMessage[])] });
    // OpenAIChatGenerator answers no messages with no replies.
    if (this.options.emptyForNoMessages && (inputs.messages as ChatMessage[]).length === 0) return { replies: [] };
    const cb = inputs.streaming_callback as ((c: unknown) => unknown) | null;
    const reply = this.responses[(this.calls.length - 1) % this.responses.length]!;
    if (cb && reply.text) await cb({ content: reply.text });
    return { replies: [reply] };
  }
}

export interface SpanRecord {
  name: string;
  tags: Tags;
  parent?: SpanRecord;
  ended: boolean;
}
/** Haystack's spying tracer: every span with its tags and parent. */
export class SpyingTracer implements Tracer {
  readonly spans: SpanRecord[] = [];
  private readonly records = new WeakMap<Span, SpanRecord>();
  startSpan(name: string, tags: Tags = {}, parent?: Span): Span {
    const record: SpanRecord = { name, tags: { ...tags }, parent: parent ? this.records.get(parent) : undefined, ended: false };
    this.spans.push(record);
    const span: Span = {
      name,
      setTag: (k: string, val: TagValue) => ((record.tags[k] = val), span),
      setTags: (t: Tags) => (Object.assign(record.tags, t), span),
      end: () => void (record.ended = true),
    };
    this.records.set(span, record);
    return span;
  }
}

export const logged: string[] = [];
export const ctx = (extra: Partial<ComponentContext> = {}): ComponentContext => ({
  name: "agent",
  signal: new AbortController().signal,
  tracer: NOOP_TRACER,
  log: new Logger("INFO", (line) => logged.push(line)),
  ...extra,
});

/** Runs `fn` with console.warn captured. */
export async function warnings(fn: () => unknown): Promise<string[]> {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void seen.push(args.map(String).join(" "));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return seen;
}

export const rejection = (p: Promise<unknown>) => p.then(() => null, (e: Error) => e);
