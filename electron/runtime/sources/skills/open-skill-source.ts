// Builds the runtime's one SkillSource from the settings store: roots and grants follow the
// settings (a changed `skillRoots` or trust re-reads the folders; a switched skill rebuilds the
// group); Python scripts run in the owner's warm fork-servers (their dependencies preloaded),
// everything else with the cold runner.
import { existsSync } from 'node:fs';
import type { Settings } from '../../../../shared/settings.ts';
import { createRunner } from '../../runner/create-runner.ts';
import type { Runner, RunnerOptions } from '../../runner/types.ts';
import { createSourceContext, type HelperPools } from '../source-context.ts';
import type { ToolRoot } from '../discovery/tool-roots.ts';
import type { SourceContext } from '../types.ts';
import { skillRootsFromSettings, skillRootsKey } from './skill-roots.ts';
import { SkillSource } from './skill-source.ts';

export interface OpenSkillSourceOptions {
  home: string;
  settings: { get(): Settings; onDidChange(listener: (next: Settings) => void): () => void };
  /** The project folder whose .agents/.claude skills are read once trusted (the CLI's cwd, else settings.workingDir, else the user's home). */
  cwd: (settings: Settings) => string;
  toolRoots: () => ToolRoot[];
  runnerOptions?: RunnerOptions;
  /** A ready runner (tests): every run cold through it. */
  runner?: Runner;
  /**
   * The owner's helper processes: without a ready runner, skills' Python runs go through their
   * warm fork-servers (asked for at the first run: `skills list` starts nothing). Absent: cold.
   */
  pools?: () => HelperPools;
  watch?: boolean;
  log?: (message: string) => void;
}

export function openSkillSource(options: OpenSkillSourceOptions): { source: SkillSource; close(): void } {
  const { home, settings } = options;
  const roots = (current = settings.get()) => skillRootsFromSettings(current, { home, cwd: options.cwd(current) });
  const cold = options.runner ?? (options.pools ? undefined : createRunner({ maxOutputBytes: settings.get().limits.outputCapBytes, ...options.runnerOptions }));
  let context: { of: Settings; ctx: SourceContext } | undefined;
  const source = new SkillSource({
    home,
    roots: () => roots(),
    settings: () => settings.get(),
    context: () => {
      const current = settings.get();
      if (context?.of !== current) {
        // Skill roots are kept read-only to every tool, as tool roots are (only those that exist: no litter).
        const skillDirs = roots(current).filter((r) => !r.untrusted && existsSync(r.root)).map((r) => ({ path: r.root, kind: 'user' as const }));
        const allRoots = [...options.toolRoots(), ...skillDirs];
        const ctx = cold
          ? createSourceContext(current, home, { runner: cold, roots: allRoots, ...(options.pools ? { pools: options.pools() } : {}) })
          : createSourceContext(current, home, { roots: allRoots, pools: options.pools!(), ...(options.runnerOptions ? { runnerOptions: options.runnerOptions } : {}) });
        // Scripts run in the working folder every tool runs in (settings.workingDir, else the home).
        context = { of: current, ctx };
      }
      return context.ctx;
    },
    ...(options.log ? { log: options.log } : {}),
  });
  source.load();
  if (options.watch) source.watch();
  let lastRoots = skillRootsKey(settings.get());
  let lastSkills = JSON.stringify(settings.get().skills ?? {});
  const off = settings.onDidChange((next) => {
    const rootsKey = skillRootsKey(next);
    const skillsKey = JSON.stringify(next.skills ?? {});
    if (rootsKey !== lastRoots) {
      lastRoots = rootsKey;
      lastSkills = skillsKey;
      source.load();
      if (options.watch) source.watch();
    } else if (skillsKey !== lastSkills) {
      lastSkills = skillsKey;
      source.refresh();
    }
  });
  return {
    source,
    close() {
      off();
      source.close();
    },
  };
}
