/** A part as the supervisor's status line shows it. */
export type PartStatus = {
  name: string;
  /** Set while it runs. */
  upMs?: number;
  /** Set while it waits for its backoff. */
  restartInMs?: number;
  restarts: number;
  crashesInARow: number;
};

/** `status: gateway up 2m05s · esign-1 up 4s (3 restarts) · esign-2 down, restart in 8s (5 crashes in a row)`. */
export function formatStatusLine(parts: readonly PartStatus[]): string {
  return `status: ${parts.map(describe).join(' · ')}`;
}

function describe(p: PartStatus): string {
  const state = p.upMs !== undefined ? `up ${duration(p.upMs)}` : p.restartInMs !== undefined ? `down, restart in ${duration(p.restartInMs)}` : 'down';
  const notes = [
    ...(p.restarts > 0 ? [`${p.restarts} restart${p.restarts === 1 ? '' : 's'}`] : []),
    ...(p.crashesInARow > 1 && p.upMs === undefined ? [`${p.crashesInARow} crashes in a row`] : []),
  ];
  return `${p.name} ${state}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
