import { registerAutoReplies } from './auto-replies/register.ts';
import { registerBilling } from './billing/register.ts';
import { registerBotRuntime } from './bot-runtime/runtime.ts';
import { registerChannelOutbox } from './channels/register.ts';
import { registerQueueStage } from './chats/queue-stage.ts';
import { registerChatTimers } from './chats/timers.ts';
import { registerBlacklistStage } from './clients/blacklist.ts';
import { registerMonitoring } from './monitoring/register.ts';
import { registerPresence } from './presence/register.ts';
import { registerRatings } from './ratings/register.ts';
import { registerReports } from './reports/register.ts';
import { registerRulesStage } from './routing-rules/stage.ts';

/**
 * What each module plugs into the infrastructure at boot: pipeline stages, timer handlers, event consumers,
 * the outbox handler. jobs/ and realtime/ never import a domain module; modules register here instead.
 * Registration is per process and idempotent (registries are keyed by name).
 */
const setups: (() => void)[] = [
  registerQueueStage,
  registerChatTimers,
  registerPresence,
  registerChannelOutbox,
  registerRatings,
  registerAutoReplies,
  registerRulesStage,
  registerBotRuntime,
  registerBlacklistStage,
  registerReports,
  registerMonitoring,
  registerBilling,
];

let done = false;
/** Registers every module's stages, timers and consumers (once per process). */
export function setupModules(): void {
  if (done) return;
  done = true;
  for (const setup of setups) setup();
}
