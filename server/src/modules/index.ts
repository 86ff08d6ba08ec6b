import type { ModuleRoutes } from '../http/route.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { autoReplyRoutes } from './auto-replies/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import { botRuntimeRoutes } from './bot-runtime/routes.ts';
import { categoryRoutes } from './categories/routes.ts';
import { channelRoutes } from './channels/routes.ts';
import { chatBotRoutes } from './chat-bots/routes.ts';
import { chatRoutes } from './chats/routes.ts';
import { clientRoutes } from './clients/routes.ts';
import { conversationRoutes } from './conversation/routes.ts';
import { fileRoutes } from './files/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { knowledgeBaseRoutes } from './knowledge-base/routes.ts';
import { landingRoutes } from './landing/routes.ts';
import { mailingRoutes } from './mailings/routes.ts';
import { monitoringRoutes } from './monitoring/routes.ts';
import { metricsRoutes } from './observability/metrics-route.ts';
import { telemetryRoutes } from './observability/routes.ts';
import { organisationRoutes } from './organisations/routes.ts';
import { presenceRoutes } from './presence/routes.ts';
import { pushRoutes } from './push/routes.ts';
import { ratingRoutes } from './ratings/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { roleRoutes } from './roles/routes.ts';
import { routingRuleRoutes } from './routing-rules/routes.ts';
import { signupRoutes } from './signup/routes.ts';
import { smsImportRoutes } from './sms-import/routes.ts';
import { supportRoutes } from './support/routes.ts';
import { teamRoutes } from './teams/routes.ts';
import { templateRoutes } from './templates/routes.ts';
import { userRoutes } from './users/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { widgetRoutes } from './widget/routes.ts';

export type { ModuleRoutes } from '../http/route.ts';

/** Every module's routes; a new domain adds one line here. */
export const modules: ModuleRoutes[] = [
  healthRoutes,
  metricsRoutes,
  telemetryRoutes,
  authRoutes,
  apiKeyRoutes,
  userRoutes,
  teamRoutes,
  roleRoutes,
  fileRoutes,
  channelRoutes,
  autoReplyRoutes,
  chatRoutes,
  conversationRoutes,
  presenceRoutes,
  categoryRoutes,
  clientRoutes,
  organisationRoutes,
  widgetRoutes,
  ratingRoutes,
  supportRoutes,
  routingRuleRoutes,
  templateRoutes,
  knowledgeBaseRoutes,
  landingRoutes,
  signupRoutes,
  reportRoutes,
  monitoringRoutes,
  chatBotRoutes,
  botRuntimeRoutes,
  billingRoutes,
  mailingRoutes,
  smsImportRoutes,
  webhookRoutes,
  pushRoutes,
];
