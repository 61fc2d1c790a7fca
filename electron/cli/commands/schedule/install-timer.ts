// `tooldesk schedule install-timer`: prints (never installs) what makes the OS call
// `tooldesk schedule run-due` every minute, for users who prefer their own timer to a running
// app: a systemd user timer, a crontab line, or a launchd agent.
import { join } from 'node:path';
import { toolDeskHome } from '../../../runtime/paths.ts';
import { projectRoot } from '../../project-root.ts';
import { UsageError, type Command } from '../../command.ts';
import { option, parseArgs } from '../../parse-args.ts';

const KINDS = ['systemd', 'cron', 'launchd'] as const;
type Kind = (typeof KINDS)[number];

/** The command line the timer runs: this Node and this tooldesk, with this home. */
export function runDueCommandLine(): string[] {
  return [process.execPath, join(projectRoot, 'electron/cli/bin.mjs'), 'schedule', 'run-due'];
}

const quote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
const xml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function timerText(kind: Kind, home: string): string {
  const argv = runDueCommandLine();
  const line = argv.map(quote).join(' ');
  if (kind === 'cron') {
    return ['# Add with `crontab -e`: runs the due schedules every minute.', `* * * * * TOOLDESK_HOME=${quote(home)} ${line} >/dev/null 2>&1`, ''].join('\n');
  }
  if (kind === 'systemd') {
    return [
      '# ~/.config/systemd/user/tooldesk-schedules.service',
      '[Unit]',
      'Description=Tooldesk: run the due schedules',
      '',
      '[Service]',
      'Type=oneshot',
      `Environment=TOOLDESK_HOME=${home}`,
      `ExecStart=${line}`,
      '',
      '# ~/.config/systemd/user/tooldesk-schedules.timer',
      '[Unit]',
      'Description=Tooldesk: run the due schedules every minute',
      '',
      '[Timer]',
      'OnCalendar=*-*-* *:*:00',
      'Persistent=true',
      '',
      '[Install]',
      'WantedBy=timers.target',
      '',
      '# Then: systemctl --user daemon-reload && systemctl --user enable --now tooldesk-schedules.timer',
      '',
    ].join('\n');
  }
  return [
    '<!-- ~/Library/LaunchAgents/app.tooldesk.schedules.plist; then: launchctl load ~/Library/LaunchAgents/app.tooldesk.schedules.plist -->',
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key><string>app.tooldesk.schedules</string>',
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...argv.map((word) => `    <string>${xml(word)}</string>`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    `  <dict><key>TOOLDESK_HOME</key><string>${xml(home)}</string></dict>`,
    '  <key>StartInterval</key><integer>60</integer>',
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

export const installTimerCommand: Command = {
  name: 'install-timer',
  summary: 'Print a systemd timer, crontab line or launchd agent that calls run-due (installs nothing)',
  usage: [
    'Usage: tooldesk schedule install-timer [--kind systemd|cron|launchd]',
    '',
    'Prints what makes your system run `tooldesk schedule run-due` every minute, for when neither the',
    'app nor `tooldesk serve` is running. Nothing is installed: copy it where the comments say.',
    'Default kind: launchd on macOS, systemd on Linux, cron elsewhere.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['kind'] });
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const kind = option(args, 'kind') ?? (process.platform === 'darwin' ? 'launchd' : process.platform === 'linux' ? 'systemd' : 'cron');
    if (!KINDS.includes(kind as Kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')} (got "${kind}")`);
    io.stdout.write(timerText(kind as Kind, toolDeskHome(io.env)));
    return 0;
  },
};
