/** A client merge's part in the conversation: chats change owner through chats' owner (conversation). */
export { moveClientChats } from './queries.ts';
