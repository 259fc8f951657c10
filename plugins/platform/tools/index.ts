/**
 * @module The base functions of the built-in tools, for `buildTool` (custom tools, tools that wrap
 * one named pipeline).
 */
export { listPipelines, getPipeline, getPipelineYaml, createPipeline, updatePipeline, validatePipeline, pipelinePath } from "./pipelines.js";
export { deployPipeline, searchPipeline, getPipelineLogs } from "./pipeline-runs.js";
export { listIndexes, getIndex, createIndex, updateIndex, deployIndex, validateIndex } from "./indexes.js";
export { listTemplates, getTemplate } from "./templates.js";
export { listComponentFamilies, getComponentDefinition, getCustomComponents } from "./components.js";
export { listWorkspaces, getWorkspace, listSecrets, getSecret, getCurrentUser } from "./account.js";
export { checkYaml, validateYaml, orFail, clientOf, workspaceOf, text, optionalText, integer, flag } from "./common.js";
