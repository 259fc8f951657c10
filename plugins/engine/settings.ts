/**
 * @module The settings svc:engine declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc";

const { choice } = settingTypes;

export const engineSettings = {
  yamlResultShape: setting(choice(["outputs", "hayhooks"]), {
    env: "SERVICE_YAML_RESULT_SHAPE",
    default: "outputs",
    help: "What a YAML pipeline's `/run` answers: `outputs` (`{\"result\": {<declared output>: value}}`) or `hayhooks` (Hayhooks' raw pipeline output keyed by component, `{\"result\": {<component>: {<output>: value}}}`), so clients written against Hayhooks work unchanged.",
  }),
};
