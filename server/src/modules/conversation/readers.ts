/**
 * What the workspace's read side (modules/chats/) builds its reads on, of the tables this module owns (chats,
 * messages, chat_history): the row shapes, the one chat lookup, and the SQL it shares with the commands (the chat
 * select, the SQL twin of policy.canSee, a message's columns), one copy for both sides.
 */
export type { ChatRow, HistoryRow, MessageRow, Viewer } from './queries.ts';
export { findChat, messageColumns, selectChat, visible } from './queries.ts';
