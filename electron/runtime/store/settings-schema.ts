// JSON Schema of shared/settings.ts `Settings`, checked with ajv whenever the file is read or written.
// Unknown top-level keys are allowed (a newer version may have written them); known keys must match.
import { EXECUTION_POLICIES, RESULT_APPROVAL_POLICIES, type JsonSchema } from '../../../shared/tools.ts';
import { ToolRuleSchema } from '../../../shared/tool-rule.ts';

const sandboxMode = { enum: ['auto', 'required', 'off'] };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const boolMap = { type: 'object', additionalProperties: { type: 'boolean' } };
const count = { type: 'integer', minimum: 0 };

const permission = {
  type: 'object',
  properties: {
    executionPolicy: { enum: [...EXECUTION_POLICIES] },
    resultApprovalPolicy: { enum: [...RESULT_APPROVAL_POLICIES] },
  },
  additionalProperties: false,
};

const provider = {
  type: 'object',
  required: ['id', 'name', 'kind', 'baseURL', 'model'],
  properties: {
    id: { type: 'string', minLength: 1 },
    name: { type: 'string' },
    kind: { const: 'openai-compatible' },
    baseURL: { type: 'string' },
    model: { type: 'string' },
    headers: stringMap,
    temperature: { type: 'number' },
    maxTokens: { type: 'integer', minimum: 1 },
    maxTokensParam: { enum: ['max_tokens', 'max_completion_tokens'] },
    apiKeySecret: { type: 'string' },
  },
  additionalProperties: false,
};

// A rule's shape is the rule's own schema (shared/tool-rule.ts). A regex that does not compile is
// kept and reported by the rules themselves: one bad pattern must not reset the file.
const toolRule = ToolRuleSchema;
const permissionLevel = { enum: ['ask', 'default', 'read-only-auto', 'trusted'] };

export const SETTINGS_SCHEMA: JsonSchema = {
  type: 'object',
  required: [
    'providers', 'activeProviderId', 'systemPrompt', 'toolRoots', 'wellKnownRoots', 'groupDefaults',
    'toolDefaults', 'permissionOverrides', 'sandbox', 'limits', 'pythonPath', 'extraEnv', 'workingDir',
    'agenvoyKeyCompat',
  ],
  properties: {
    providers: { type: 'array', items: provider },
    activeProviderId: { type: ['string', 'null'] },
    systemPrompt: { type: 'string' },
    toolRoots: { type: 'array', items: { type: 'string' } },
    wellKnownRoots: {
      type: 'object',
      properties: {
        agenvoyHome: { type: 'boolean' },
        agenvoyProject: { type: 'boolean' },
        ompHome: { type: 'boolean' },
        ompProject: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    // Not required: files written before project trust existed have none (nothing trusted).
    // Absolute paths only (POSIX, `C:\\…` or `\\\\server\\…`): a relative one would approve that folder in every project.
    trustedProjectFolders: { type: 'array', items: { type: 'string', pattern: '^(/|[A-Za-z]:[\\\\/]|\\\\\\\\)' } },
    groupDefaults: boolMap,
    toolDefaults: boolMap,
    permissionOverrides: { type: 'object', additionalProperties: permission },
    sandbox: {
      type: 'object',
      required: ['mode', 'perTool', 'allowHomeWrite'],
      properties: {
        mode: sandboxMode,
        perTool: { type: 'object', additionalProperties: sandboxMode },
        allowHomeWrite: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    limits: {
      type: 'object',
      properties: {
        toolTimeoutMs: count,
        truncateChars: { type: 'integer' },
        outputCapBytes: count,
        maxSteps: { type: 'integer', minimum: 1 },
        variableMaxEntries: count,
        variableMaxBytes: count,
        maxProcesses: count,
        maxMemoryBytes: count,
        toolDefinitionBudgetChars: count,
        toolSourceMaxBytes: count,
        mcpStartTimeoutMs: count,
      },
      additionalProperties: false,
    },
    pythonPath: { type: ['string', 'null'] },
    extraEnv: stringMap,
    workingDir: { type: ['string', 'null'] },
    agenvoyKeyCompat: { type: 'boolean' },
    lastChatModel: {
      type: ['object', 'null'],
      required: ['providerId', 'model'],
      properties: { providerId: { type: 'string', minLength: 1 }, model: { type: 'string', minLength: 1 } },
      additionalProperties: false,
    },
    chatPresets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          systemPrompt: { type: 'string' },
          temperature: { type: 'number', minimum: 0, maximum: 2 },
          maxTokens: { type: 'integer', minimum: 1 },
        },
        additionalProperties: false,
      },
    },
    runner: {
      type: 'object',
      properties: { warmPython: { type: 'boolean' }, preloadImports: { type: 'boolean' }, preloadMaxMs: { type: 'integer', minimum: 1, maximum: 60_000 } },
      additionalProperties: false,
    },
    toolRules: { type: 'array', items: toolRule },
    toolSets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, pattern: '^[^\\s]+$' },
          groups: { type: 'array', items: { type: 'string' } },
          tools: { type: 'array', items: { type: 'string' } },
          // Skill ids (`pdf`, or `label:pdf` when two origins share the name): one word each.
          skills: { type: 'array', items: { type: 'string', minLength: 1, pattern: '^[^\\s]+$' } },
          rules: { type: 'array', items: toolRule },
          level: permissionLevel,
        },
        additionalProperties: false,
      },
    },
    serverBindings: stringMap,
    skillRoots: { type: 'array', items: { type: 'string' } },
    skills: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { enabled: { type: 'boolean' }, network: { type: 'boolean' }, toolSet: { type: 'string' } },
        additionalProperties: false,
      },
    },
    // Each entry is checked by runtime/schedules/schedule-config.ts: a broken schedule is reported
    // on its own (and does not run), never a reason to reset the whole settings file.
    schedules: { type: 'array', items: { type: 'object' } },
    scheduleLimits: {
      type: 'object',
      properties: { maxSteps: { type: 'integer', minimum: 1 }, maxToolCalls: count, maxRunSeconds: { type: 'integer', minimum: 1 }, providerRetries: count, providerRetrySeconds: { type: 'number', minimum: 0 } },
      additionalProperties: false,
    },
    // Each entry is checked by sources/mcp/config/server-config.ts: a broken server is a diagnostic on
    // its own, never a reason to reset the whole settings file.
    mcpServers: { type: 'object', additionalProperties: { type: 'object' } },
    mcpRegistry: { type: 'object', properties: { url: { type: ['string', 'null'], pattern: '^https?://' } }, additionalProperties: false },
  },
  additionalProperties: true,
};
