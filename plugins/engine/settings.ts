/**
 * @module The settings svc:engine declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, choice } = settingTypes;

export const engineSettings = {
  yamlResultShape: setting(choice(["outputs", "hayhooks"]), {
    env: "SERVICE_YAML_RESULT_SHAPE",
    default: "hayhooks",
    help: "What a YAML pipeline's run answers (REST `/run`, its MCP tool, `svc pipeline run`): `hayhooks` (Hayhooks' shape: the raw pipeline output keyed by component, `{\"result\": {<component>: {<output>: value}}}`, the components named in `outputs` included whole) or `outputs` (keyed by the declared output names, `{\"result\": {<declared output>: value}}`).",
  }),
  yamlUnsafe: setting(boolean(), {
    env: "SERVICE_YAML_UNSAFE",
    default: false,
    help: "Load YAML pipelines as Haystack's `Pipeline.load(..., unsafe=True)` does: a ConditionalRouter or OutputAdapter may set `unsafe: true` and name `custom_filters` (functions registered with the engine). Off (the default, Haystack's safe mode), such YAML is refused with Haystack's DeserializationError. Only for YAML from trusted sources.",
  }),
};
