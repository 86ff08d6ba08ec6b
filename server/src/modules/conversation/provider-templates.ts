import {
  fillProviderTemplate,
  FIELD_MESSAGES as M,
  providerTemplateVariables,
  type TemplateMessageInput,
  type WhatsAppTemplateDto,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { userActor } from '../../lib/actor.ts';
import { channelTemplates } from '../channels/service.ts';
import { getChat } from '../chats/service.ts';
import { sendMessage } from './send-message.ts';

/** The templates registered at the provider of a chat's channel (WhatsApp), for a user who sees the chat. */
export async function chatProviderTemplates(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
): Promise<WhatsAppTemplateDto[]> {
  const chat = await getChat(app, auth, chatId);
  return channelTemplates(app, auth.organisationId, chat.channel_id);
}

/**
 * Sends one of the chat channel's registered templates (allowed after the session window closed, §4): every
 * variable of its body needs a value, in order; the chat shows the filled-in body. The rest is sendMessage's.
 */
export async function sendProviderTemplate(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  input: TemplateMessageInput,
) {
  const template = (await chatProviderTemplates(app, auth, chatId)).find((t) => t.id === input.templateId);
  if (!template) throw new AppError('templateNotFoundException');
  const wanted = providerTemplateVariables(template.text);
  if (input.variables.length !== wanted.length)
    throw new AppError('validationException', { variables: M.requiredFields });
  return sendMessage(app, userActor(auth), chatId, {
    text: fillProviderTemplate(template.text, input.variables),
    internal: false,
    attachments: [],
    template: { name: template.name, languageCode: template.languageCode, variables: input.variables },
  });
}
