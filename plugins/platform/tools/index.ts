/**
 * @module The base functions of the built-in tools, for `buildTool` (custom tools, tools that wrap
 * one named pipeline).
 */
export { listPipelines, getPipeline, getPipelineYaml, createPipeline, updatePipeline, validatePipeline, pipelinePath } from "./pipelines.js";
export { listPipelineVersions, getPipelineVersion, createPipelineVersion, patchPipelineVersion, restorePipelineVersion, latestVersion, type PipelineVersion } from "./pipeline-versions.js";
export { deployPipeline, searchPipeline, searchPipelineWithFilters, searchPipelineWithParams, getPipelineLogs } from "./pipeline-runs.js";
export { debugPipeline } from "./pipeline-debug.js";
export { listIndexes, getIndex, createIndex, updateIndex, deployIndex, validateIndex } from "./indexes.js";
export { getModels } from "./models.js";
export { listTemplates, getTemplate, searchTemplates } from "./templates.js";
export { listSearchHistory, listPipelineSearchHistory, listPipelineTraces, getPipelineTrace, getPipelineTraceSpanTags, getPipelineTraceLogs } from "./search-history.js";
export { listCustomComponentInstallations, getLatestCustomComponentInstallationLogs } from "./custom-components.js";
export { listComponentFamilies, getComponentDefinition, searchComponentDefinitions, getCustomComponents, runComponent } from "./components.js";
export { listWorkspaces, getWorkspace, createWorkspace, listSecrets, getSecret, getCurrentUser } from "./account.js";
export { loadSkill, discoverSkills, type Skill } from "./skills.js";
export { searchDocs, docsCorpus } from "./docs.js";
export { rankByBm25, type Ranked } from "./rank.js";
export { checkYaml, validateYaml, orFail, clientOf, workspaceOf, text, optionalText, integer, flag } from "./common.js";
