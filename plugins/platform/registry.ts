/**
 * @module Every built-in platform tool with its configuration (what is injected, which memory),
 * grouped as the library it ports groups them: results of reads are stored and previewed
 * (EXPLORABLE); tools that take YAML or other large inputs also accept references
 * (EXPLORABLE_AND_REFERENCEABLE); skills and documentation answer plain text.
 */
import { MemoryType, type BaseTool, type ToolConfig } from "./tool-config.js";
import { createPipeline, getPipeline, getPipelineYaml, listPipelines, updatePipeline, validatePipeline } from "./tools/pipelines.js";
import { createPipelineVersion, getPipelineVersion, listPipelineVersions, patchPipelineVersion, restorePipelineVersion } from "./tools/pipeline-versions.js";
import { deployPipeline, getPipelineLogs, searchPipeline, searchPipelineWithFilters, searchPipelineWithParams } from "./tools/pipeline-runs.js";
import { debugPipeline } from "./tools/pipeline-debug.js";
import { createIndex, deployIndex, getIndex, listIndexes, updateIndex, validateIndex } from "./tools/indexes.js";
import { getModels } from "./tools/models.js";
import { getTemplate, listTemplates, searchTemplates } from "./tools/templates.js";
import {
  getPipelineTrace,
  getPipelineTraceLogs,
  getPipelineTraceSpanTags,
  listPipelineSearchHistory,
  listPipelineTraces,
  listSearchHistory,
} from "./tools/search-history.js";
import { getLatestCustomComponentInstallationLogs, listCustomComponentInstallations } from "./tools/custom-components.js";
import { getComponentDefinition, getCustomComponents, listComponentFamilies, runComponent, searchComponentDefinitions } from "./tools/components.js";
import { createWorkspace, getCurrentUser, getSecret, getWorkspace, listSecrets, listWorkspaces } from "./tools/account.js";
import { loadSkill } from "./tools/skills.js";
import { searchDocs } from "./tools/docs.js";
import { OBJECT_STORE_TOOLS } from "./tools/store-tools.js";

export interface RegistryEntry {
  base: BaseTool;
  config: ToolConfig;
  /** Reads only: hinted to clients as `readOnlyHint`. */
  readOnly: boolean;
}

const { EXPLORABLE: E, EXPLORABLE_AND_REFERENCEABLE: ER, NO_MEMORY } = MemoryType;
const inWorkspace = (memoryType: MemoryType, customArgs?: Record<string, unknown>, explorerConfig?: ToolConfig["explorerConfig"]): ToolConfig => ({
  needsClient: true,
  needsWorkspace: true,
  memoryType,
  customArgs,
  ...(explorerConfig ? { explorerConfig } : {}),
});
const account = (memoryType: MemoryType): ToolConfig => ({ needsClient: true, memoryType });

const entries: [BaseTool, ToolConfig, boolean][] = [
  // Pipelines
  [listPipelines, inWorkspace(E), true],
  [createPipeline, inWorkspace(ER, { skip_validation_errors: true }), false],
  [listPipelineVersions, inWorkspace(E), true],
  [createPipelineVersion, inWorkspace(ER), false],
  [getPipelineVersion, inWorkspace(E), true],
  [patchPipelineVersion, inWorkspace(ER), false],
  [restorePipelineVersion, inWorkspace(ER), false],
  [getPipeline, inWorkspace(E), true],
  [getPipelineYaml, inWorkspace(E), true],
  [updatePipeline, inWorkspace(ER, { skip_validation_errors: true }), false],
  [deployPipeline, inWorkspace(E, { wait_for_deployment: true, timeout_seconds: 600, poll_interval: 5 }), false],
  [validatePipeline, inWorkspace(ER), true],
  [getPipelineLogs, inWorkspace(E), true],
  // A debug run executes the pipeline (side effects unless dry_run).
  [debugPipeline, inWorkspace(ER), false],
  [searchPipeline, inWorkspace(E), true],
  [searchPipelineWithFilters, inWorkspace(E), true],
  [searchPipelineWithParams, inWorkspace(E), true],
  // Indexes
  [listIndexes, inWorkspace(E), true],
  [getIndex, inWorkspace(E), true],
  [createIndex, inWorkspace(ER), false],
  [updateIndex, inWorkspace(ER), false],
  [deployIndex, inWorkspace(E), false],
  [validateIndex, inWorkspace(ER), true],
  // Models, templates
  [getModels, inWorkspace(E, undefined, { maxDepth: 1000 }), true],
  [listTemplates, inWorkspace(E), true],
  [getTemplate, inWorkspace(E), true],
  [searchTemplates, inWorkspace(E), true],
  // Search history and traces
  [listSearchHistory, inWorkspace(E), true],
  [listPipelineSearchHistory, inWorkspace(E), true],
  [listPipelineTraces, inWorkspace(E), true],
  [getPipelineTrace, inWorkspace(E), true],
  [getPipelineTraceSpanTags, inWorkspace(E), true],
  [getPipelineTraceLogs, inWorkspace(E), true],
  // Custom components (organisation-wide; the workspace is accepted as the original does)
  [listCustomComponentInstallations, inWorkspace(E), true],
  [getLatestCustomComponentInstallationLogs, inWorkspace(E), true],
  // Components
  [listComponentFamilies, account(E), true],
  [getComponentDefinition, account(E), true],
  [searchComponentDefinitions, account(E), true],
  [getCustomComponents, account(E), true],
  [runComponent, account(ER), false],
  // Secrets, skills, workspaces, users, documentation
  [listSecrets, account(E), true],
  [getSecret, account(E), true],
  [loadSkill, { memoryType: NO_MEMORY }, true],
  [listWorkspaces, account(E), true],
  [getWorkspace, account(E), true],
  [createWorkspace, account(E), false],
  [getCurrentUser, account(E), true],
  [searchDocs, { memoryType: NO_MEMORY }, true],
];

export const TOOL_REGISTRY: ReadonlyMap<string, RegistryEntry> = new Map(entries.map(([base, config, readOnly]) => [base.name, { base, config, readOnly }]));

/** Every tool name `configureMcpServer` knows, the object-store tools included. */
export const ALL_PLATFORM_TOOLS: readonly string[] = [...TOOL_REGISTRY.keys(), ...OBJECT_STORE_TOOLS].sort();
