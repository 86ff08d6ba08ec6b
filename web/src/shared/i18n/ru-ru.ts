import type { Resources } from './en-gb.ts';
import { a11y } from './ru-ru/a11y.ts';
import { attention } from './ru-ru/attention.ts';
import { autoReplies } from './ru-ru/autoReplies.ts';
import { avatar } from './ru-ru/avatar.ts';
import { billing } from './ru-ru/billing.ts';
import { botRuntime } from './ru-ru/botRuntime.ts';
import { carousel } from './ru-ru/carousel.ts';
import { channels } from './ru-ru/channels.ts';
import { chat } from './ru-ru/chat.ts';
import { chatBots } from './ru-ru/chatBots.ts';
import { chats } from './ru-ru/chats.ts';
import { clientProfiles } from './ru-ru/clientProfiles.ts';
import { common } from './ru-ru/common.ts';
import { conversation } from './ru-ru/conversation.ts';
import { emailChannel } from './ru-ru/emailChannel.ts';
import { errors } from './ru-ru/errors.ts';
import { fields } from './ru-ru/fields.ts';
import { finance } from './ru-ru/finance.ts';
import { firstRun } from './ru-ru/firstRun.ts';
import { integrations } from './ru-ru/integrations.ts';
import { kb } from './ru-ru/kb.ts';
import { landing } from './ru-ru/landing.ts';
import { languages } from './ru-ru/languages.ts';
import { login } from './ru-ru/login.ts';
import { mailings } from './ru-ru/mailings.ts';
import { menu } from './ru-ru/menu.ts';
import { messengers } from './ru-ru/messengers.ts';
import { monitoring } from './ru-ru/monitoring.ts';
import { notices } from './ru-ru/notices.ts';
import { observability } from './ru-ru/observability.ts';
import { orgSettings } from './ru-ru/orgSettings.ts';
import { pages } from './ru-ru/pages.ts';
import { planOptions } from './ru-ru/planOptions.ts';
import { preferences } from './ru-ru/preferences.ts';
import { profile } from './ru-ru/profile.ts';
import { push } from './ru-ru/push.ts';
import { rating } from './ru-ru/rating.ts';
import { reports } from './ru-ru/reports.ts';
import { requestCategories } from './ru-ru/requestCategories.ts';
import { restore } from './ru-ru/restore.ts';
import { rights } from './ru-ru/rights.ts';
import { roleDescriptions } from './ru-ru/roleDescriptions.ts';
import { roleNames } from './ru-ru/roleNames.ts';
import { roles } from './ru-ru/roles.ts';
import { routingRules } from './ru-ru/routingRules.ts';
import { shortcuts } from './ru-ru/shortcuts.ts';
import { signup } from './ru-ru/signup.ts';
import { siteChat } from './ru-ru/siteChat.ts';
import { smsImport } from './ru-ru/sms-import.ts';
import { teams } from './ru-ru/teams.ts';
import { templates } from './ru-ru/templates.ts';
import { titles } from './ru-ru/titles.ts';
import { users } from './ru-ru/users.ts';
import { webhooks } from './ru-ru/webhooks.ts';
import { workspace } from './ru-ru/workspace.ts';

/** Russian (ru-RU) texts, one file per namespace (ru-ru/<namespace>.ts); the same keys as en-gb. */
export const ruRU: Resources = {
  common,
  roleNames,
  roleDescriptions,
  languages,
  titles,
  login,
  carousel,
  restore,
  pages,
  menu,
  workspace,
  chats,
  chat,
  conversation,
  channels,
  autoReplies,
  reports,
  monitoring,
  finance,
  preferences,
  templates,
  kb,
  users,
  avatar,
  teams,
  requestCategories,
  roles,
  routingRules,
  mailings,
  smsImport,
  integrations,
  webhooks,
  rights,
  profile,
  push,
  a11y,
  attention,
  shortcuts,
  notices,
  planOptions,
  rating,
  siteChat,
  emailChannel,
  observability,
  clientProfiles,
  messengers,
  landing,
  chatBots,
  signup,
  botRuntime,
  firstRun,
  billing,
  orgSettings,
  fields,
  errors,
};
