// Types of system-setup.mjs (plain JavaScript: npm's pretest runs it before anything is set up).
export interface Requirement {
  command: string;
  why: string;
  packages: Partial<Record<'apt' | 'dnf' | 'brew', string>>;
}
export declare const REQUIREMENTS: Requirement[];
export declare function findOnPath(command: string, path?: string): string | null;
export declare function packageManager(platform?: NodeJS.Platform, path?: string): 'apt' | 'dnf' | 'brew' | null;
export declare function installCommands(missing: Requirement[], manager: 'apt' | 'dnf' | 'brew', options?: { sudo?: boolean; unattended?: boolean }): string[];
export declare function adviceFor(missing: Requirement[], manager: 'apt' | 'dnf' | 'brew' | null): string[];
export declare function setupSystem(options?: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; uid?: number; out?: NodeJS.WritableStream; run?: (command: string) => number }): number;
