// The audit lines a run produced: the decisions logged for its chat between its start and its end
// (every call of a run is in its chat, and one chat has one run at a time).
import type { AuditEntry } from '../../../shared/permissions.ts';
import type { ScheduleRun } from '../../../shared/schedules.ts';
import { auditDir, readAudit } from '../audit/audit-log.ts';

export function runAuditLines(home: string, run: ScheduleRun): AuditEntry[] {
  const since = new Date(run.startedAt).toISOString();
  const until = run.endedAt === undefined ? undefined : new Date(run.endedAt + 1).toISOString();
  return readAudit(auditDir(home), { since }).filter((entry) => entry.sessionId === run.sessionId && (until === undefined || entry.at <= until));
}
