// `tooldesk schedule …`: prompts that run on a schedule with nobody watching.
import type { Command } from '../../command.ts';
import { commandGroup } from '../../command-group.ts';

export const scheduleCommand: Command = commandGroup({
  name: 'schedule',
  summary: 'Prompts that run on a schedule, unattended (pause for your answer, or refuse)',
  subcommands: [
    { name: 'add', summary: 'Add (or replace) a schedule: schedule add NAME --every DUR|--cron EXPR --prompt TEXT', load: async () => (await import('./schedule-edit.ts')).addCommand },
    { name: 'list', summary: 'List the schedules with their next run', load: async () => (await import('./schedule-show.ts')).listCommand },
    { name: 'remove', summary: 'Remove the schedule NAME (its chat and run records stay)', load: async () => (await import('./schedule-edit.ts')).removeCommand },
    { name: 'enable', summary: 'Let the schedule NAME run again', load: async () => (await import('./schedule-edit.ts')).enableCommand },
    { name: 'disable', summary: 'Stop the schedule NAME from running (kept in the settings)', load: async () => (await import('./schedule-edit.ts')).disableCommand },
    { name: 'run', summary: 'Run the schedule NAME once now; returns when the run ends or pauses', load: async () => (await import('./schedule-run.ts')).runCommand },
    { name: 'runs', summary: 'The runs of the schedule NAME: start, end, status, calls and their audit lines', load: async () => (await import('./schedule-show.ts')).runsCommand },
    { name: 'run-due', summary: 'Run whatever is due now and exit (for an OS timer: see install-timer)', load: async () => (await import('./schedule-run.ts')).runDueCommand },
    { name: 'install-timer', summary: 'Print a systemd timer, crontab line or launchd agent that calls run-due (installs nothing)', load: async () => (await import('./install-timer.ts')).installTimerCommand },
  ],
  footer: ['Questions a paused run waits on: `tooldesk inbox`. The rules on permissions: the README\'s Schedules section.', ''],
});
