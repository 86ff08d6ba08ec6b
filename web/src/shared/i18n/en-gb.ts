import { a11y } from './en-gb/a11y.ts';
import { attention } from './en-gb/attention.ts';
import { autoReplies } from './en-gb/autoReplies.ts';
import { avatar } from './en-gb/avatar.ts';
import { billing } from './en-gb/billing.ts';
import { botRuntime } from './en-gb/botRuntime.ts';
import { carousel } from './en-gb/carousel.ts';
import { channels } from './en-gb/channels.ts';
import { chat } from './en-gb/chat.ts';
import { chatBots } from './en-gb/chatBots.ts';
import { chats } from './en-gb/chats.ts';
import { clientProfiles } from './en-gb/clientProfiles.ts';
import { common } from './en-gb/common.ts';
import { conversation } from './en-gb/conversation.ts';
import { emailChannel } from './en-gb/emailChannel.ts';
import { errors } from './en-gb/errors.ts';
import { fields } from './en-gb/fields.ts';
import { finance } from './en-gb/finance.ts';
import { firstRun } from './en-gb/firstRun.ts';
import { integrations } from './en-gb/integrations.ts';
import { kb } from './en-gb/kb.ts';
import { landing } from './en-gb/landing.ts';
import { languages } from './en-gb/languages.ts';
import { login } from './en-gb/login.ts';
import { mailings } from './en-gb/mailings.ts';
import { menu } from './en-gb/menu.ts';
import { messengers } from './en-gb/messengers.ts';
import { monitoring } from './en-gb/monitoring.ts';
import { notices } from './en-gb/notices.ts';
import { observability } from './en-gb/observability.ts';
import { orgSettings } from './en-gb/orgSettings.ts';
import { pages } from './en-gb/pages.ts';
import { planOptions } from './en-gb/planOptions.ts';
import { preferences } from './en-gb/preferences.ts';
import { profile } from './en-gb/profile.ts';
import { push } from './en-gb/push.ts';
import { rating } from './en-gb/rating.ts';
import { reports } from './en-gb/reports.ts';
import { requestCategories } from './en-gb/requestCategories.ts';
import { restore } from './en-gb/restore.ts';
import { rights } from './en-gb/rights.ts';
import { roleDescriptions } from './en-gb/roleDescriptions.ts';
import { roleNames } from './en-gb/roleNames.ts';
import { roles } from './en-gb/roles.ts';
import { routingRules } from './en-gb/routingRules.ts';
import { shortcuts } from './en-gb/shortcuts.ts';
import { signup } from './en-gb/signup.ts';
import { siteChat } from './en-gb/siteChat.ts';
import { smsImport } from './en-gb/sms-import.ts';
import { teams } from './en-gb/teams.ts';
import { templates } from './en-gb/templates.ts';
import { titles } from './en-gb/titles.ts';
import { users } from './en-gb/users.ts';
import { webhooks } from './en-gb/webhooks.ts';
import { workspace } from './en-gb/workspace.ts';

/**
 * English (en-GB) texts, one file per namespace (en-gb/<namespace>.ts; a feature's texts are its namespace's file).
 * Every key here must exist in ru-ru too (the Resources type and locales.test.ts check it).
 */
export const enGB = {
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

/** i18next plural suffixes: English needs `_one`/`_other`, Russian `_one`/`_few`/`_many`/`_other`. */
type PluralForm = 'one' | 'few' | 'many' | 'other';
type Shape<T> = {
  [K in keyof T & string as K extends `${string}_one` | `${string}_other` ? never : K]: T[K] extends string
    ? string
    : Shape<T[K]>;
} & { [K in keyof T & string as K extends `${infer B}_other` ? `${B}_${PluralForm}` : never]: string };
export type Resources = Shape<typeof enGB>;
