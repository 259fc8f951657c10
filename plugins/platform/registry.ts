/**
 * @module Every built-in platform tool with its configuration (what is injected, which memory):
 * results of reads are stored and previewed (EXPLORABLE); tools that take YAML or other large
 * inputs also accept references (EXPLORABLE_AND_REFERENCEABLE).
 */
import { MemoryType, type BaseTool, type ToolConfig } from "./tool-config.js";
import { createPipeline, getPipeline, getPipelineYaml, listPipelines, updatePipeline, validatePipeline } from "./tools/pipelines.js";
import { deployPipeline, getPipelineLogs, searchPipeline } from "./tools/pipeline-runs.js";
import { createIndex, deployIndex, getIndex, listIndexes, updateIndex, validateIndex } from "./tools/indexes.js";
import { getTemplate, listTemplates } from "./tools/templates.js";
import { getComponentDefinition, getCustomComponents, listComponentFamilies } from "./tools/components.js";
import { getCurrentUser, getSecret, getWorkspace, listSecrets, listWorkspaces } from "./tools/account.js";
import { OBJECT_STORE_TOOLS } from "./tools/store-tools.js";

export interface RegistryEntry {
  base: BaseTool;
  config: ToolConfig;
  /** Reads only: hinted to clients as `readOnlyHint`. */
  readOnly: boolean;
}

const { EXPLORABLE: E, EXPLORABLE_AND_REFERENCEABLE: ER } = MemoryType;
const inWorkspace = (memoryType: MemoryType, customArgs?: Record<string, unknown>): ToolConfig => ({ needsClient: true, needsWorkspace: true, memoryType, customArgs });
const account = (memoryType: MemoryType): ToolConfig => ({ needsClient: true, memoryType });

const entries: [BaseTool, ToolConfig, boolean][] = [
  [listPipelines, inWorkspace(E), true],
  [getPipeline, inWorkspace(E), true],
  [getPipelineYaml, inWorkspace(E), true],
  [searchPipeline, inWorkspace(E), true],
  [createPipeline, inWorkspace(ER, { skip_validation_errors: true }), false],
  [updatePipeline, inWorkspace(ER, { skip_validation_errors: true }), false],
  [validatePipeline, inWorkspace(ER), true],
  [deployPipeline, inWorkspace(E, { wait_for_deployment: true, timeout_seconds: 600, poll_interval: 5 }), false],
  [getPipelineLogs, inWorkspace(E), true],
  [listIndexes, inWorkspace(E), true],
  [getIndex, inWorkspace(E), true],
  [createIndex, inWorkspace(ER), false],
  [updateIndex, inWorkspace(ER), false],
  [deployIndex, inWorkspace(E), false],
  [validateIndex, inWorkspace(ER), true],
  [listTemplates, inWorkspace(E), true],
  [getTemplate, inWorkspace(E), true],
  [listComponentFamilies, account(E), true],
  [getComponentDefinition, account(E), true],
  [getCustomComponents, account(E), true],
  [listSecrets, account(E), true],
  [getSecret, account(E), true],
  [listWorkspaces, account(E), true],
  [getWorkspace, account(E), true],
  [getCurrentUser, account(E), true],
];

export const TOOL_REGISTRY: ReadonlyMap<string, RegistryEntry> = new Map(entries.map(([base, config, readOnly]) => [base.name, { base, config, readOnly }]));

/** Every tool name `configureMcpServer` knows, the object-store tools included. */
export const ALL_PLATFORM_TOOLS: readonly string[] = [...TOOL_REGISTRY.keys(), ...OBJECT_STORE_TOOLS].sort();
