// The request shape of every API method, checked by the WebSocket server and the IPC binding
// before a handler runs (a renderer — or a page that stole a socket — cannot send anything else).
import { API_ERRORS, API_LIMITS, isApiMethod, type ApiMethodName, type ErrorValue } from './api.ts';
import { bool, checkShape, json, list, nullable, num, obj, oneOf, record, str, type Shape } from './api-shape.ts';
import { NEW_TOOL_FORMATS } from './new-tool-formats.ts';
import { PERMISSION_LEVELS } from './permissions.ts';
import { defaultSettings, type ProviderConfig } from './settings.ts';
import { VARIABLE_TYPES } from './variables.ts';

const name = str(API_LIMITS.maxNameChars, 1);
const id = str(API_LIMITS.maxNameChars, 1);
const text = str(API_LIMITS.maxTextChars);
const empty = obj({});
const sessionId = { sessionId: id };

// Typed by ProviderConfig's keys, so a field added there cannot be forgotten here (the request
// would be refused as an "unknown field").
const providerProps: Record<keyof ProviderConfig, Shape> = {
  id,
  name: str(API_LIMITS.maxNameChars),
  kind: oneOf(['openai-compatible']),
  baseURL: str(4096),
  model: str(API_LIMITS.maxNameChars),
  headers: record(str(8192), 100),
  temperature: num({ min: 0, max: 10 }),
  maxTokens: num({ integer: true, min: 1 }),
  maxTokensParam: oneOf(['max_tokens', 'max_completion_tokens']),
  apiKeySecret: str(API_LIMITS.maxNameChars),
};
const provider = obj(providerProps, ['headers', 'temperature', 'maxTokens', 'maxTokensParam', 'apiKeySecret']);

const providerRef = obj({ providerId: id, provider, apiKey: str(16_384) }, ['providerId', 'provider', 'apiKey']);

const decision = obj(
  { decision: oneOf(['once', 'session', 'always', 'reject']), reason: str(API_LIMITS.maxTextChars), remember: oneOf(['session']), args: record(json()), rule: json() },
  ['reason', 'remember', 'args', 'rule'],
);

/** Top-level settings keys; values are checked by the settings store's own schema. */
const settingsKeys = Object.keys(defaultSettings());
const settingsPatch = obj(Object.fromEntries(settingsKeys.map((k) => [k, json()])), settingsKeys);

const files = record(str(API_LIMITS.maxTextChars), 64);

const chatSettings = obj(
  {
    providerId: id,
    model: str(API_LIMITS.maxNameChars, 1),
    systemPrompt: str(API_LIMITS.maxTextChars),
    temperature: num({ min: 0, max: 2 }),
    maxTokens: num({ integer: true, min: 1 }),
    permissions: oneOf([...PERMISSION_LEVELS]),
    toolSet: name,
    skillsOff: list(name, 1000),
  },
  ['providerId', 'model', 'systemPrompt', 'temperature', 'maxTokens', 'permissions', 'toolSet', 'skillsOff'],
);
// The bytes travel base64 inside the request, whose size the transport bounds.
const attachment = obj({ name: str(API_LIMITS.maxNameChars, 1), mediaType: str(256), data: str(API_LIMITS.maxMessageBytes) });

/** A schedule as the Settings form sends it; its meaning (a cron that parses …) is checked by the runtime. */
function schedule(): Shape {
  const optional = ['every', 'cron', 'timezone', 'toolSet', 'permissions', 'onAsk', 'cwd', 'providerId', 'model', 'enabled', 'createdAt'];
  return obj(
    {
      name,
      prompt: text,
      every: str(64, 1),
      cron: str(256, 1),
      timezone: str(128, 1),
      toolSet: name,
      permissions: oneOf([...PERMISSION_LEVELS]),
      onAsk: oneOf(['pause', 'deny']),
      cwd: str(4096, 1),
      providerId: id,
      model: str(API_LIMITS.maxNameChars, 1),
      enabled: bool(),
      createdAt: num({ min: 0 }),
    },
    optional,
  );
}

export const REQUEST_SHAPES: Record<ApiMethodName, Shape> = {
  listSessions: empty,
  createSession: obj({ title: str(API_LIMITS.maxNameChars), chat: chatSettings }, ['title', 'chat']),
  openSession: obj(sessionId),
  renameSession: obj({ ...sessionId, title: str(API_LIMITS.maxNameChars) }),
  setSessionFlags: obj({ ...sessionId, pinned: bool(), archived: bool() }, ['pinned', 'archived']),
  deleteSession: obj(sessionId),
  searchSessions: obj({ query: str(API_LIMITS.maxNameChars) }),
  sendMessage: obj({ ...sessionId, text, messageId: str(64, 1), attachments: list(attachment, 20) }, ['messageId', 'attachments']),
  editMessage: obj({ ...sessionId, messageId: id, text }),
  regenerate: obj({ ...sessionId, messageId: id }),
  continueTurn: obj(sessionId),
  switchBranch: obj({ ...sessionId, messageId: id }),
  deleteMessage: obj({ ...sessionId, messageId: id }),
  setChatSettings: obj({ ...sessionId, chat: chatSettings }),
  listAllModels: empty,
  exportSession: obj({ ...sessionId, format: oneOf(['md', 'json']) }),
  abort: obj(sessionId),
  answerApproval: obj({ ...sessionId, requestId: id, decision }),
  answerMcpInteraction: obj({ ...sessionId, requestId: id, answer: obj({ action: oneOf(['accept', 'decline', 'cancel']), content: record(json(), 64) }, ['content']) }),
  cancelToolCall: obj({ ...sessionId, callId: id }),
  rerunToolCall: obj({ ...sessionId, callId: id, args: record(json()) }, ['args']),
  checkToolArgs: obj({ ...sessionId, name, args: record(json()) }),
  readToolImage: obj({ ...sessionId, stored: str(256, 1) }),
  // null, or {tools: string[], pinned: string[]} (checked by the handler: shapes have no arrays).
  setToolSelection: obj({ ...sessionId, selection: json() }),
  listTools: empty,
  reloadTools: empty,
  openToolsFolder: empty,
  openDocs: obj({ page: str(200, 1) }),
  setGroupEnabled: obj({ group: name, enabled: bool() }),
  setToolEnabled: obj({ tool: name, enabled: bool() }),
  getToolValves: obj({ group: name }),
  setToolValves: obj({ group: name, kind: oneOf(['valves', 'userValves']), values: record(str(65_536), 64) }),
  createTool: obj({ format: oneOf(NEW_TOOL_FORMATS), name, files }, ['files']),
  readTool: obj({ name }),
  updateTool: obj({ name, files }),
  deleteTool: obj({ name }),
  trustToolFolder: obj({ path: str(4096, 1), trusted: bool() }),
  runTool: obj({ ...sessionId, name, args: record(json()) }),
  listVariables: obj({ ...sessionId, type: oneOf(VARIABLE_TYPES), search: str(API_LIMITS.maxNameChars) }, ['type', 'search']),
  readVariable: obj(
    { ...sessionId, name: str(4096, 1), start: num({ integer: true, min: 0 }), length: num({ integer: true, min: 0 }) },
    ['start', 'length'],
  ),
  deleteVariable: obj({ ...sessionId, name: str(4096, 1) }),
  getSettings: empty,
  setSettings: obj({ patch: settingsPatch, secrets: record(nullable(str(65_536)), 16) }, ['secrets']),
  listProviders: empty,
  testProvider: providerRef,
  listModels: providerRef,
  detectLocalProviders: empty,
  setSecret: obj({ name, value: str(65_536) }),
  deleteSecret: obj({ name }),
  hasSecret: obj({ name }),
  // args and names are string arrays, checked by the handler (shapes have no arrays).
  listMcpServers: empty,
  addMcpServer: obj({ name, command: str(4096, 1), args: json(), url: str(4096, 1) }, ['command', 'args', 'url']),
  removeMcpServer: obj({ name }),
  restartMcpServer: obj({ name }),
  allowMcpWrite: obj({ name, folder: str(4096, 1) }),
  setMcpArgFoldersWritable: obj({ name, writable: bool() }),
  previewMcpImport: empty,
  importMcpServers: obj({ names: json(), answers: record(str(16_384), 200), allowSecrets: list(name, 200) }, ['answers', 'allowSecrets']),
  listMcpPrompts: empty,
  listMcpResources: empty,
  readMcpResource: obj({ server: name, uri: str(8192, 1) }),
  appInfo: empty,
  openMcpApp: obj({ ...sessionId, callId: id }),
  allowMcpApp: obj({ server: name, kind: oneOf(['show', 'permissions', 'links', 'messages']) }),
  callToolFromApp: obj({ ...sessionId, callId: id, name, args: record(json()) }),
  readResourceFromApp: obj({ ...sessionId, callId: id, uri: str(8192, 1) }),
  updateModelContextFromApp: obj({ ...sessionId, callId: id, text: str(64 * 1024) }),
  listAudit: obj({ tool: name, decision: oneOf(['allowed', 'denied', 'rejected']), since: str(64), limit: num({ integer: true, min: 1, max: 5000 }) }, ['tool', 'decision', 'since', 'limit']),
  openMcpBundle: obj({ fileName: str(API_LIMITS.maxNameChars, 1), data: str(API_LIMITS.maxMessageBytes, 1) }),
  installMcpBundle: obj({ id, name, values: record(str(65_536), 200) }, ['name']),
  discardMcpBundle: obj({ id }),
  searchMcpRegistry: obj({ text: str(API_LIMITS.maxNameChars) }),
  installMcpRegistryServer: obj({ name, localName: name, values: record(str(65_536), 200) }, ['localName']),
  openMcpRegistryBundle: obj({ name }),
  listSchedules: empty,
  saveSchedule: obj({ schedule: schedule() }),
  removeSchedule: obj({ name }),
  runSchedule: obj({ name }),
  answerInbox: obj({ id, decision: oneOf(['approve', 'reject']), reason: str(API_LIMITS.maxTextChars), content: record(json(), 64) }, ['reason', 'content']),
  listSkills: empty,
  setSkillEnabled: obj({ id, enabled: bool() }),
  setSkillNetwork: obj({ id, granted: bool() }),
  setSkillRoots: obj({ roots: list(str(4096, 1), 100) }),
  setSkillToolSet: obj({ id, accept: bool() }),
  createSkill: obj({ name }),
  testToolRules: obj({ tool: name, args: record(json()), rules: list(json(), 1000), toolSet: name }, ['rules', 'toolSet']),
};

/**
 * Checks a method name and its request. Returns the error to send back, or null when valid.
 * An absent request counts as `{}` (methods without arguments may be called bare).
 */
export function validateRequest(method: unknown, request: unknown): ErrorValue | null {
  if (!isApiMethod(method)) {
    return { name: API_ERRORS.unknownMethod, message: `unknown method ${JSON.stringify(String(method)).slice(0, 100)}` };
  }
  const problem = checkShape(REQUEST_SHAPES[method], request === undefined ? {} : request);
  return problem ? { name: API_ERRORS.invalidRequest, message: `${method}: ${problem}` } : null;
}
