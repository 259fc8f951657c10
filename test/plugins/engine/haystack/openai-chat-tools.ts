/**
 * @module The `tools` fixture of Haystack's test_openai.py: the `weather` Tool (its
 * `weather_function` keyed by city) and the `message_extractor` ComponentTool over Haystack's
 * `MessageExtractor` component (a richer parameter signature: a list of ChatMessages and an
 * optional dict), plus a registry that can load both back from their dicts.
 */
import * as v from "valibot";
import { ChatMessage, Component, ComponentTool, createRegistry, output, socket, Tool, type ComponentContext } from "svc/engine";
import { rememberCallableName } from "../../../../plugins/engine/callable-names.js";

export const WEATHER: Record<string, Record<string, unknown>> = {
  Berlin: { weather: "mostly sunny", temperature: 7, unit: "celsius" },
  Paris: { weather: "mostly cloudy", temperature: 8, unit: "celsius" },
  Rome: { weather: "sunny", temperature: 14, unit: "celsius" },
};
export const weatherFunction = ({ city }: Record<string, any>) => WEATHER[city] ?? { weather: "unknown", temperature: 0, unit: "celsius" };
rememberCallableName(weatherFunction, "test_openai.weather_function");

/** Haystack's MessageExtractor: the text content of ChatMessages, and the meta passed through. */
export class MessageExtractor extends Component {
  static override readonly type = "test_openai.MessageExtractor";
  protected inputSpecs() {
    return { messages: socket(v.array(v.instance(ChatMessage))), meta: socket(v.nullable(v.record(v.string(), v.any())), { default: null }) };
  }
  protected outputSpecs() {
    return { messages: output(v.array(v.string())), meta: output(v.record(v.string(), v.any())) };
  }
  async run(inputs: { messages: ChatMessage[]; meta?: Record<string, unknown> | null }, _ctx: ComponentContext) {
    return { messages: inputs.messages.map((m) => m.text), meta: inputs.meta ?? {} };
  }
}

export const tools = (): [Tool, ComponentTool] => [
  new Tool({ name: "weather", description: "useful to determine the weather in a given location", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, function: weatherFunction }),
  new ComponentTool({ component: new MessageExtractor(), name: "message_extractor", description: "Useful for returning the text content of ChatMessage objects" }),
];

export const toolsRegistry = () => {
  const registry = createRegistry().registerFunction("test_openai.weather_function", weatherFunction);
  registry.components.register(MessageExtractor);
  return registry;
};
