import { registerAutoReplies } from './auto-replies/register.ts';
import { registerBilling } from './billing/register.ts';
import { registerBotRuntime } from './bot-runtime/register.ts';
import { registerChannelOutbox } from './channels/register.ts';
import { registerChats } from './chats/register.ts';
import { registerClients } from './clients/register.ts';
import { registerConversation } from './conversation/register.ts';
import { registerMailings } from './mailings/register.ts';
import { registerMonitoring } from './monitoring/register.ts';
import { registerPresence } from './presence/register.ts';
import { registerPush } from './push/register.ts';
import { registerRatings } from './ratings/register.ts';
import { registerReports } from './reports/register.ts';
import { registerRoutingRules } from './routing-rules/register.ts';
import { registerSmsImport } from './sms-import/register.ts';
import { registerTeams } from './teams/register.ts';
import { registerWebhooks } from './webhooks/register.ts';
import { registerWidget } from './widget/register.ts';

/**
 * What each module plugs in at boot, each from its one `register.ts`: pipeline stages, timer handlers, event
 * consumers, the outbox handler, periodic tasks, and the plug points of other modules (plug-points.ts). jobs/ and
 * realtime/ never import a domain module; modules register here instead. Registration is per process and
 * idempotent (registries are keyed by name, a plug point keeps a value once).
 */
const setups: (() => void)[] = [
  registerTeams,
  registerConversation,
  registerChats,
  registerPresence,
  registerChannelOutbox,
  registerRatings,
  registerAutoReplies,
  registerRoutingRules,
  registerBotRuntime,
  registerClients,
  registerReports,
  registerMonitoring,
  registerBilling,
  registerWidget,
  registerMailings,
  registerSmsImport,
  registerWebhooks,
  registerPush,
];

let done = false;
/** Registers every module's stages, timers and consumers (once per process). */
export function setupModules(): void {
  if (done) return;
  done = true;
  for (const setup of setups) setup();
}
