/**
 * @module The settings svc:engine declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc";

const { choice } = settingTypes;

export const engineSettings = {
  yamlResultShape: setting(choice(["outputs", "hayhooks"]), {
    env: "SERVICE_YAML_RESULT_SHAPE",
    default: "hayhooks",
    help: "What a YAML pipeline's run answers (REST `/run`, its MCP tool, `svc pipeline run`): `hayhooks` (Hayhooks' shape: the raw pipeline output keyed by component, `{\"result\": {<component>: {<output>: value}}}`, the components named in `outputs` included whole) or `outputs` (keyed by the declared output names, `{\"result\": {<declared output>: value}}`).",
  }),
};
