/**
 * When each chat timer is due, written once: as SQL for the statements that arm timers for many chats at a time (the
 * ingest batch, a team's changed inactivity time) and as TypeScript for the timer that reads its chat again when it
 * fires (a later message moves the moment) and for the commands that arm one chat's timer. Each rule is a moment of
 * the chat plus a setting of its team or channel; `sql` takes both as SQL expressions.
 */
const minutesAfter = (from: Date | string, minutes: number) =>
  new Date(new Date(from).getTime() + minutes * 60_000);

export const DUE = {
  /** Auto-close: the team's minutes after the client's last message. */
  autoClose: {
    sql: (lastClientMessageAt: string, minutes: string) =>
      `${lastClientMessageAt} + make_interval(mins => ${minutes})`,
    at: (lastClientMessageAt: Date | string, minutes: number) => minutesAfter(lastClientMessageAt, minutes),
  },
  /** Inactivity close: the team's hours after the last message of either side (or the chat's start). */
  inactivityClose: {
    sql: (lastMessageAt: string, hours: string) => `${lastMessageAt} + make_interval(hours => ${hours})`,
    at: (lastMessageAt: Date | string, hours: number) => minutesAfter(lastMessageAt, hours * 60),
  },
  /** Half-expired and expired: the channel's minutes after the client's oldest unanswered message. */
  overdue: {
    sql: (unansweredSince: string, minutes: string) =>
      `${unansweredSince} + make_interval(mins => ${minutes})`,
    at: (unansweredSince: Date | string, minutes: number) => minutesAfter(unansweredSince, minutes),
  },
  /** Redistribution: the team's minutes after the chat was assigned, unless the operator answered. */
  redistribute: {
    at: (assignedAt: Date | string, minutes: number) => minutesAfter(assignedAt, minutes),
  },
} as const;
