// The subprocess runner contract shared by every script-based tool format.
import type { SandboxMode } from '../../../shared/settings.ts';
import type { KeyEndpoint } from './key-endpoint.ts';

export interface SandboxSpec {
  mode: SandboxMode;
  /** The tool's own folder: readable, and writable only when `writableToolDir`. */
  toolDir: string;
  writableToolDir?: boolean;
  /**
   * `toolDir` is a working folder (an MCP server's cwd), not a tool's code: it stays readable but
   * is not protected, so writable folders inside it (`~/.npm` under the home) stay writable.
   */
  toolDirIsWorkingFolder?: boolean;
  /** The session's working folder: writable. */
  workDir?: string;
  /**
   * More folders the process may write (an MCP server's `writable` list), under the same rules as
   * the working folder: one that does not exist, holds the home, or lies in a protected path stays
   * read-only, with a warning saying so.
   */
  writableDirs?: string[];
  /** False when the tool declares `network: false`. */
  network: boolean;
  allowHomeWrite?: boolean;
  /**
   * Files or folders the command needs to read (our helper scripts), kept visible read-only even
   * where the sandbox hides their parent (the private /tmp: an app or checkout under /tmp).
   */
  readOnlyPaths?: string[];
  maxProcesses?: number;
  maxMemoryBytes?: number;
  /** The home whose credential folders are hidden; default $HOME. */
  homeDir?: string;
  /** More paths under the home to hide (relative to it), on top of the built-in list. */
  hidePaths?: string[];
  /**
   * What no tool may write, whatever the writable folders above contain: told by the app (its
   * home may not be the environment's TOOLDESK_HOME), never guessed here.
   */
  protect?: ProtectedPaths;
  /**
   * The process mounts a /proc, a /dev/shm and masks of its own for each call (the warm
   * fork-server): as root it may lift bwrap's covers of /proc first, then drops every capability.
   */
  mountsPerCall?: boolean;
}

/**
 * Paths a tool must never change, or it could plant a tool, raise its own permissions or switch
 * the sandbox off. Each is bound read-only after every writable bind, whatever the nesting.
 */
export interface ProtectedPaths {
  /** TOOLDESK_HOME: settings, caches, the default tools folder. Read-only. */
  appHome: string;
  /** The settings file (inside `appHome` unless moved). Read-only. */
  settingsFile: string;
  /** Chat transcripts: hidden entirely. */
  sessionsDir: string;
  /**
   * Tool roots the user named, the default one and the other projects' folders in the home:
   * read-only; one that does not exist yet is covered by an empty read-only folder (created empty
   * on disk) so that no tool can create it and fill it.
   */
  toolRoots: string[];
  /**
   * The other projects' tool folders inside a project (`.omp/tools`, `.config/agenvoy/tools/script`):
   * read-only when they exist. A missing one is not created (no litter in the user's project):
   * one that appears is an untrusted project folder and loads nothing until the user approves it.
   */
  projectToolFolders: string[];
}

export interface RunSpec {
  command: string;
  args: string[];
  cwd: string;
  /** Written to the child's stdin, then stdin is closed. */
  stdin?: string;
  /** Added to the minimal base environment (PATH, HOME, LANG, TEMP…). */
  env?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Cap for each of stdout and stderr, bytes. */
  maxOutputBytes?: number;
  /** Kill the process group when a cap is exceeded (default) or let it finish. */
  killOnCap?: boolean;
  /** Open fd 3 as a private result channel the script's own prints cannot corrupt. */
  resultChannel?: boolean;
  /** Keychain secret names to inject as environment variables (and redact from outputs). */
  secrets?: string[];
  sandbox?: SandboxSpec;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /**
   * What this Python run does, for a runner that can serve it from a warm fork-server instead of
   * starting `command` (see runner/warm-python/). `command` must then be the interpreter and
   * `args` exactly the cold command line the hint describes; a runner that ignores it runs those.
   */
  python?: PythonRunHint;
}

export type PythonRunHint = (
  /** `python run_tool.py FILE FUNCTION MARKER`. */
  | { kind: 'module'; file: string; function: string; marker: string }
  /** `python FILE ARGS…` (Agenvoy script.py, a skill's script). */
  | { kind: 'script'; file: string; args?: string[] }
  /** `python -u -` with this program on stdin (three-layer execution.py after substitution). */
  | { kind: 'code'; code: string }
) & {
  /**
   * The Python files of the tool's folder whose top-level imports its fork-server may import once,
   * before forking (see runner/warm-python/preload-set.ts): the same list for every tool of a
   * folder, so they share one fork-server.
   */
  preload?: string[];
};

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The fd 3 channel's content when `resultChannel` was set. */
  channel?: string;
  /** The fd 3 channel exceeded its cap (8× the output cap) and was cut. */
  channelTruncated?: boolean;
  timedOut: boolean;
  aborted: boolean;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Set when a cap was exceeded: whether the process was killed for it or allowed to finish. */
  capAction?: 'killed' | 'finished';
  durationMs: number;
  sandboxed: boolean;
  /** Why it ran unsandboxed in `auto` mode, or why it refused in `required` mode. */
  sandboxNote?: string;
  /**
   * Things the user should know that did not stop the run, from the sandbox (its search for
   * secret files was cut short, the working folder was kept read-only…). Formats add them to the
   * tool result's warnings (see runWarnings).
   */
  warnings?: string[];
  /** Set when the run hit the process-count or memory bound (also appended to stderr). */
  limitNote?: string;
  /** Set when the process could not start at all (ENOENT, sandbox refused, missing secret). */
  spawnError?: string;
  /** A warm Python run: the modules its fork-server had imported before forking it. */
  preloaded?: string[];
}

/** Contract: never throws; every failure is described in the RunResult. */
export type Runner = (spec: RunSpec) => Promise<RunResult>;

/**
 * Looks up keychain secrets for a run. Contract: never throws; resolves with every requested
 * name's value, or with `missing` naming those it could not find (the run is then refused).
 */
/** `noKeychain`: the keychain could not be reached for some name (the message then names the alternative). */
export type SecretResolver = (names: string[]) => Promise<{ values: Record<string, string>; missing: string[]; noKeychain?: boolean }>;

export interface RunnerOptions {
  /** Where the minimal base environment is picked from (default: process.env). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Default cap for each of stdout/stderr when a spec gives none, bytes (default 1 MiB). */
  maxOutputBytes?: number;
  /** Between SIGTERM and SIGKILL of a process group, ms (default 500). */
  killGraceMs?: number;
  /** After the main process exits, how long its output pipes may stay open (held by a
   *  grandchild) before the group is killed and the run settles, ms (default 200). */
  drainMs?: number;
  /** Resolves `spec.secrets`; without it a spec that declares secrets is refused. */
  resolveSecrets?: SecretResolver;
  /** Serves `GET /v1/key` to the run's processes (TOOLDESK_KEY_URL + TOOLDESK_TOKEN in their env). */
  keyEndpoint?: KeyEndpoint;
  /** Called once per process actually started (tests count spawns with it). */
  onSpawn?: (spec: RunSpec) => void;
}
