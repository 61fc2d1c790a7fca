// What the user already decided in this session, keyed by tool + canonical JSON of the resolved
// arguments, so the same call is not asked again. Exported/imported so sessions persist it.
import type { ApprovalType } from '../../../../shared/tools.ts';
import { canonicalJson } from './canonical-json.ts';

/**
 * `approved` with `scope: 'once'` is the record an ask-once policy keeps for its one ask;
 * `scope: 'session'` is the user's explicit "approve for this session" (honoured by ask-always
 * too). `rejected` entries exist only when the user asked to remember the rejection.
 */
export type RememberedDecision =
  | { decision: 'approved'; scope: 'once' | 'session' }
  | { decision: 'rejected'; reason?: string };

export interface ApprovalMemoryEntry {
  key: string;
  type: ApprovalType;
  toolName: string;
  remembered: RememberedDecision;
  at: number;
}

export interface ApprovalMemoryData {
  version: 1;
  entries: ApprovalMemoryEntry[];
}

export function approvalKey(type: ApprovalType, toolName: string, args: unknown): string {
  return `${type}\u0000${toolName}\u0000${canonicalJson(args)}`;
}

export class ApprovalMemory {
  private readonly entries = new Map<string, ApprovalMemoryEntry>();

  recall(type: ApprovalType, toolName: string, args: unknown): RememberedDecision | undefined {
    return this.entries.get(approvalKey(type, toolName, args))?.remembered;
  }

  remember(type: ApprovalType, toolName: string, args: unknown, remembered: RememberedDecision): void {
    const key = approvalKey(type, toolName, args);
    this.entries.set(key, { key, type, toolName, remembered, at: Date.now() });
  }

  forgetTool(toolName: string): void {
    for (const [key, entry] of this.entries) if (entry.toolName === toolName) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  export(): ApprovalMemoryData {
    return { version: 1, entries: [...this.entries.values()].map((e) => ({ ...e })) };
  }

  /** Merges `data` in; malformed entries are skipped. Returns how many were taken. */
  import(data: ApprovalMemoryData | unknown): number {
    const entries = isRecord(data) && Array.isArray(data.entries) ? data.entries : [];
    let taken = 0;
    for (const raw of entries) {
      const entry = toEntry(raw);
      if (!entry) continue;
      this.entries.set(entry.key, entry);
      taken++;
    }
    return taken;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toEntry(raw: unknown): ApprovalMemoryEntry | undefined {
  if (!isRecord(raw) || typeof raw.key !== 'string' || typeof raw.toolName !== 'string') return undefined;
  if (raw.type !== 'execution' && raw.type !== 'result') return undefined;
  const r = raw.remembered;
  if (!isRecord(r)) return undefined;
  let remembered: RememberedDecision;
  if (r.decision === 'approved' && (r.scope === 'once' || r.scope === 'session')) {
    remembered = { decision: 'approved', scope: r.scope };
  } else if (r.decision === 'rejected') {
    remembered = typeof r.reason === 'string' ? { decision: 'rejected', reason: r.reason } : { decision: 'rejected' };
  } else {
    return undefined;
  }
  return { key: raw.key, type: raw.type, toolName: raw.toolName, remembered, at: typeof raw.at === 'number' ? raw.at : 0 };
}
