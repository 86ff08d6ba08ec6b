import type { DistributionMethod } from '@smartconnect/contracts';

/** lastTurn: when (a global sequence number) the operator last received a chat of this team; null: never. */
export type Candidate = { userId: string; load: number; lastTurn: number | null };

const turn = (c: Candidate) => c.lastTurn ?? -1;
const byTurn = (a: Candidate, b: Candidate) => turn(a) - turn(b) || a.userId.localeCompare(b.userId);

/**
 * Picks the operator for one chat, or null to leave it Waiting.
 * Only candidates under the dialog limit qualify; a preferred operator (the client's last one) wins when
 * they qualify, whatever the method (manual included); otherwise round-robin gives the turn to whoever waited
 * longest, least-loaded to the fewest open chats, and manual leaves the chat Waiting.
 */
export function chooseOperator(
  method: DistributionMethod,
  candidates: Candidate[],
  opts: { dialogLimit: number; preferUserId?: string | null; excludeUserIds?: string[] },
): string | null {
  const exclude = new Set(opts.excludeUserIds ?? []);
  const open = candidates.filter((c) => c.load < opts.dialogLimit && !exclude.has(c.userId));
  if (!open.length) return null;
  if (opts.preferUserId && open.some((c) => c.userId === opts.preferUserId)) return opts.preferUserId;
  if (method === 'manual') return null;
  const sorted =
    method === 'least_loaded'
      ? [...open].sort((a, b) => a.load - b.load || byTurn(a, b))
      : [...open].sort(byTurn);
  return sorted[0].userId;
}
