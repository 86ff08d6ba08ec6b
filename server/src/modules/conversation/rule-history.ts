/**
 * The history lines of routing rules (which rule routed or closed a chat), written by the owner of chat_history
 * (conversation) for the routing-rules stage.
 */
export { insertRuleHistory, nameRuleOnClose } from './queries.ts';
