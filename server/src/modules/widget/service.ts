import {
  type SiteChatSettings,
  sanitizeStrings,
  siteChatCreateFields,
  toE164,
  visitorName,
  WIDGET_FILE_TYPES,
  WIDGET_LIMITS,
  type WidgetConfigDto,
  type WidgetMessageDto,
} from '@smartconnect/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { typesWith } from '../../channels/registry.ts';
import type { InboundEvent, InboundMessage } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import { reserve } from '../../lib/rate-limit.ts';
import { receiveOwnEvents } from '../channels/receive.ts';
import { setContactDetails } from '../clients/service.ts';
import { saveFile } from '../files/service.ts';
import { newVisitorId, visitorOf, visitorToken } from './identity.ts';
import * as Q from './queries.ts';

export type WidgetChannel = Q.WidgetChannelRow & { visitorKey: string; config: SiteChatSettings };

/** A live channel of the visitor widget (a site_chat), or 404 (another type, deleted, unknown). */
export async function widgetChannel(app: AppContext, id: string): Promise<WidgetChannel> {
  const row = await Q.findWidgetChannel(app.db, id, typesWith('visitorWidget'));
  if (!row) throw new AppError('channelNotFoundException');
  const secrets = JSON.parse(decryptSecret(app.config.secretKey, row.secrets)) as Record<string, string>;
  return {
    ...row,
    visitorKey: secrets.visitorKey ?? '',
    config: siteChatCreateFields.parse(row.settings ?? {}),
  };
}

export const configOf = (ch: WidgetChannel, assessment: boolean): WidgetConfigDto => ({
  ...ch.config,
  channelId: ch.id,
  active: ch.status === 'active' && ch.org_status === 'active',
  assessment,
  support: ch.is_platform,
  limits: {
    textMax: WIDGET_LIMITS.textMax,
    fileMaxBytes: WIDGET_LIMITS.fileMaxBytes,
    fileTypes: WIDGET_FILE_TYPES,
  },
});

/** The visitor named by the request's signed token; 401 when it is missing, forged or of another channel. */
export function visitorOfRequest(ch: WidgetChannel, token: unknown): string {
  const id = visitorOf(ch.visitorKey, ch.id, token);
  if (!id) throw new AppError('unauthorizedException');
  return id;
}

/** A new anonymous visitor: a random id, signed (an address may take only so many an hour). */
export async function newVisitor(app: AppContext, ch: WidgetChannel, ip: string) {
  await reserve(
    app.db,
    [`widget:visitors:${ip}`],
    { max: WIDGET_LIMITS.addressVisitorsPerHour, windowMs: 3_600_000 },
    app.clock.now(),
  );
  const visitorId = newVisitorId();
  return { visitorId, token: visitorToken(ch.visitorKey, ch.id, visitorId) };
}

/** The identity of a signed-in user on the platform's support channel: one per user, issued only to them. */
export function userVisitor(ch: WidgetChannel, userId: string) {
  const visitorId = `u.${userId.replaceAll('-', '')}`;
  return { visitorId, token: visitorToken(ch.visitorKey, ch.id, visitorId) };
}

/** Messages a visitor and an address may send (shared by every instance: the counters are rows). */
async function limitSend(app: AppContext, ch: WidgetChannel, visitorId: string, ip: string) {
  const now = app.clock.now();
  await reserve(
    app.db,
    [`widget:visitor:${ch.id}:${visitorId}`],
    { max: WIDGET_LIMITS.visitorMessagesPerMinute, windowMs: 60_000 },
    now,
  );
  await reserve(
    app.db,
    [`widget:ip:${ip}`],
    { max: WIDGET_LIMITS.addressMessagesPerMinute, windowMs: 60_000 },
    now,
  );
}

export const presentWidgetMessage = (
  app: AppContext,
  channelId: string,
  m: Q.VisitorMessageRow,
): WidgetMessageDto => ({
  id: m.id,
  direction: m.direction,
  text: m.text,
  attachments: (m.attachments ?? []).map((a) => ({ ...a, url: widgetFileUrl(app, channelId, a.url) })),
  status: m.status,
  author:
    m.direction === 'out' && m.author_name !== null
      ? {
          name: m.author_name,
          avatarUrl: m.photo_key
            ? `${app.config.publicUrl}/api/widget/${channelId}/files/${m.photo_key}`
            : null,
        }
      : null,
  buttons: m.direction === 'out' ? (m.buttons ?? null) : null,
  bot: m.direction === 'out' && m.by_bot,
  createdAt: new Date(m.created_at).toISOString(),
});

/** Our stored files are shown to the widget through its own route (another origin may load it). */
function widgetFileUrl(app: AppContext, channelId: string, url: string) {
  const key = /^(?:.*)\/api\/files\/([A-Za-z0-9_-]{20,})$/.exec(url)?.[1];
  return key ? `${app.config.publicUrl}/api/widget/${channelId}/files/${key}` : url;
}

export async function history(app: AppContext, ch: WidgetChannel, visitorId: string, after: string | null) {
  const rows = await Q.visitorMessages(app.db, ch.id, visitorId, after);
  return rows.map((m) => presentWidgetMessage(app, ch.id, m));
}

/**
 * What a visitor did, as the events a provider's parsed webhook would give: the visitor is the one the route
 * identified by their signed token, every string cleaned as a webhook body's is.
 */
function visitorEvent(
  visitorId: string,
  push: {
    clientMessageId: string;
    name: string;
    text: string;
    attachments: InboundMessage['attachments'];
    payload?: string;
  },
): InboundEvent {
  const clean = sanitizeStrings(push);
  const message: InboundMessage = {
    // Scoped by the visitor: one visitor's ids never collide with (or dedupe against) another's.
    externalMessageId: `${visitorId}:${clean.clientMessageId}`,
    client: { externalId: visitorId, name: clean.name },
    text: clean.text,
    attachments: clean.attachments,
  };
  // A pressed bot button: the label is what the visitor saw and sent, the payload is for the bot.
  return clean.payload ? { kind: 'postback', data: clean.payload, message } : { kind: 'message', message };
}

/**
 * A visitor's message, handed in process to the one inbound path every provider's parsed webhook takes (bounds,
 * dedupe, ingest, the pipeline's blacklist): limited per visitor and per address, files only the visitor's own
 * uploads. A resend of the same clientMessageId is one message.
 */
export async function sendVisitorMessage(
  app: AppContext,
  ch: WidgetChannel,
  token: string,
  ip: string,
  input: { clientMessageId: string; text: string; files: string[]; name?: string; payload?: string },
) {
  const visitorId = visitorOfRequest(ch, token);
  await limitSend(app, ch, visitorId, ip);
  const files = input.files.length ? await Q.visitorFiles(app.db, ch.id, visitorId, input.files) : [];
  // A support visitor is a signed-in user: named by their account and organisation, not by what the page says.
  const user = /^u\.([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/.exec(visitorId);
  const name = user ? await Q.supportUserName(app.db, user.slice(1).join('-')) : input.name?.trim();
  if (files.length !== new Set(input.files).size)
    throw new AppError('validationException', { files: 'Value specified incorrectly' });
  const received = await receiveOwnEvents(app, ch.id, ch.type, [
    visitorEvent(visitorId, {
      clientMessageId: input.clientMessageId,
      name: name || visitorName(visitorId, ch.org_language),
      text: input.text,
      attachments: files.map((f) => ({
        url: `/api/files/${f.key}`,
        name: f.name ?? undefined,
        contentType: f.content_type,
        size: f.size,
      })),
      ...(input.payload ? { payload: input.payload } : {}),
    }),
  ]);
  const result = received[0]?.result as { messageId: string; chatId: string } | undefined;
  if (!result) throw new AppError('unknownException');
  const row = await Q.visitorMessage(app.db, ch.id, visitorId, result.messageId);
  if (!row) throw new AppError('messageNotFoundException');
  return presentWidgetMessage(app, ch.id, row);
}

/** The visitor introduced themselves (name, e-mail, phone; all optional): 404 before their first message. */
export async function introduceVisitor(
  app: AppContext,
  ch: WidgetChannel,
  token: string,
  details: { name?: string; email?: string; phone?: string },
) {
  const visitorId = visitorOfRequest(ch, token);
  // A support visitor is a signed-in user: named by their account, never by the page.
  if (visitorId.startsWith('u.')) return;
  const clean = sanitizeStrings({
    name: details.name?.trim(),
    email: details.email?.trim(),
    // Stored in E.164, as every phone is (contracts/src/phone.ts).
    phone: details.phone?.trim() ? toE164(details.phone) : details.phone?.trim(),
  });
  if (!(await setContactDetails(app, ch.id, visitorId, clean)))
    throw new AppError('profileNotFoundException');
}

/** The visitor saw our messages: each of theirs moves to Delivered or Read (never back). */
export async function markVisitorMessages(
  app: AppContext,
  ch: WidgetChannel,
  token: string,
  messageIds: string[],
  status: 'delivered' | 'read',
) {
  const visitorId = visitorOfRequest(ch, token);
  for (const id of messageIds) {
    const m = await Q.visitorMessage(app.db, ch.id, visitorId, id);
    if (m?.direction !== 'out' || m.status === 'read' || m.status === status) continue;
    await receiveOwnEvents(app, ch.id, ch.type, [{ kind: 'status', messageId: id, status }]);
  }
}

/** A visitor's file: at most the size limit, and one of the allowed types as its bytes say (never its name). */
export async function uploadVisitorFile(
  app: AppContext,
  ch: WidgetChannel,
  token: string,
  ip: string,
  data: Buffer,
  name: string,
) {
  const visitorId = visitorOfRequest(ch, token);
  if (ch.status !== 'active' || ch.org_status !== 'active') throw new AppError('deactivatedChannelException');
  await limitSend(app, ch, visitorId, ip);
  if (data.length > WIDGET_LIMITS.fileMaxBytes) throw new AppError('payloadTooLargeException');
  if (!data.length) throw new AppError('fileUploadException');
  const type = await fileTypeFromBuffer(data);
  if (!type || !(WIDGET_FILE_TYPES as readonly string[]).includes(type.mime))
    throw new AppError('fileUploadException', { file: 'Value specified incorrectly' });
  const cleanName =
    [...name]
      .filter((c) => c >= ' ' && c !== '/' && c !== '\\')
      .join('')
      .slice(0, 255) || `file.${type.ext}`;
  const key = await app.db.tx(async (q) => {
    const k = await saveFile(app, q, ch.organisation_id, data, type.mime);
    await Q.recordWidgetFile(q, {
      key: k,
      organisationId: ch.organisation_id,
      channelId: ch.id,
      visitorId,
      name: cleanName,
    });
    return k;
  });
  return { key, name: cleanName, contentType: type.mime, size: data.length };
}
