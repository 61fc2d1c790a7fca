// The MCP client's entry point for the CLI's `tooldesk mcp …` commands (the cli layer imports
// host/ and runtime entry points, never sources/ or runner/ internals).
export {
  mcpLogDir,
  mcpStateDir,
  serverLogFile,
  descriptionSnapshotFile,
  keychainCredentialStore,
  formDefaults,
  entryEnvRefs,
  knownConfigFiles,
  planImport,
  answerQuestions,
  moveSecrets,
  parseMcpServers,
  parseMcpServer,
  switchedOffMessage,
  clearSecretMissing,
  markSecretsMissing,
  missingSecretsOf,
  secretStored,
  serverWriteGuard,
  type ConfigLocation,
  type ImportedServer,
  type FormValue,
  type McpInteractions,
  type McpServer,
  type McpServerStateInfo,
  type McpSourceOptions,
} from '../sources/mcp/index.ts';
export { bundleEntry, bundleTarget, checkConfigValue, discardBundle, openBundle, placeBundle, platformProblem, unpackBundle, type OpenedBundle } from '../sources/mcp/install/mcpb-bundle.ts';
export { latestServer, registryEntry, registryNamedSecrets, searchRegistry, type RegistryServer } from '../sources/mcp/install/registry-client.ts';
export { namedSecretsRefusal } from '../sources/mcp/config/secret-refs.ts';
export { fetchRegistryBundle, registryBundleCache, registryBundlePackage } from '../sources/mcp/install/registry-bundle.ts';
export { entryAllowingWrite } from '../sources/mcp/config/allow-write.ts';
export { secretResolverFrom } from '../runner/secret-resolver.ts';
export { isTrustedProjectFolder } from '../sources/discovery/tool-roots.ts';
