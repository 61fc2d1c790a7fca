// A `notifications/progress` as one line (the call's update text and its Inspect log line).
export function progressText(p: { progress: number; total?: number; message?: string }): string {
  const amount = p.total ? `${p.progress}/${p.total}` : `${p.progress}`;
  return p.message ? `${p.message} (${amount})` : `progress ${amount}`;
}
