/**
 * @module Which pipeline a component instance belongs to, and under which name (Haystack marks the
 * instance: `__haystack_added_to_pipeline__`, `__component_name__`). One instance, one pipeline.
 */
const memberships = new WeakMap<object, { pipeline: object; name: string }>();

export const membershipOf = (component: object) => memberships.get(component);
export const setMembership = (component: object, pipeline: object, name: string) => void memberships.set(component, { pipeline, name });
export const clearMembership = (component: object) => void memberships.delete(component);

/** Whether the component belongs to a pipeline (Haystack's `__haystack_added_to_pipeline__`). */
export const isInPipeline = (component: object): boolean => memberships.has(component);
