/**
 * @module Haystack 3's safe loading of serialized components: YAML may not switch off a component's
 * template sandbox (`unsafe: true`) nor name custom Jinja filters (callables that run while the
 * pipeline loads) unless the pipeline is loaded unsafely — svc's `SERVICE_YAML_UNSAFE` setting, or
 * `loadPipelineYaml(text, registry, { unsafe: true })` (Haystack's `Pipeline.load(..., unsafe=True)`).
 */
import { DeserializationError } from "./pipeline/errors.js";

const HINT = "If you trust the source of this data, load it with Pipeline.load(..., unsafe=True) (in svc: the setting SERVICE_YAML_UNSAFE=true).";

/** The `checkSafeLoading` a component class with `unsafe` and `custom_filters` init parameters declares; `label` is "a ConditionalRouter". */
export function refuseUnsafeInit(label: string): (init: Record<string, unknown>) => void {
  return (init) => {
    if (init.unsafe) throw new DeserializationError(`Refusing to deserialize ${label} with unsafe=True while loading in safe mode. ${HINT}`);
    const filters = init.custom_filters;
    if (filters && typeof filters === "object" && Object.keys(filters).length) {
      throw new DeserializationError(`Refusing to deserialize ${label} with custom filters while loading in safe mode. Custom filters are arbitrary callables that can execute during pipeline loading. ${HINT}`);
    }
  };
}
