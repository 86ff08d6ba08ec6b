/**
 * The SmartConnect customer chat SDK: a customer's side of a conversation with a business, for React Native apps,
 * web pages and Node. No UI and no framework: build yours on `SmartConnectChat` (README.md).
 */
export {
  CallError,
  type ChatEvents,
  type ChatMessage,
  type ChatOptions,
  type OutgoingFile,
  type Profile,
  type Rating,
  SmartConnectChat,
  TYPING_EVERY_MS,
} from './chat.ts';
export type { Platform } from './transport.ts';
