import {
  type Attachment,
  type BotDialogState,
  type BotFinal,
  type BotGraph,
  type BotOutput,
  type BotStep,
  BUTTON_LIMITS,
  type Button,
  type ButtonRows,
  startDialog,
  stepDialog,
  type TransferTarget,
  utf8Length,
} from '@smartconnect/contracts';
import { adapterFor } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { routeAgain, type StageRun, type StageTx } from '../../jobs/pipeline.ts';
import type { PipelineJob } from '../../jobs/pipeline-queries.ts';
import type { Actor } from '../../lib/actor.ts';
import { closeChatTx } from '../conversation/close-chat.ts';
import { distributeWaiting } from '../conversation/lifecycle.ts';
import { writeAutomatedMessage } from '../conversation/send-message.ts';
import { type BotTransfer, transferChatTx } from '../conversation/transfer-chat.ts';
import { setAutomationNeed } from '../organisations/automation.ts';
import * as Q from './queries.ts';

type BotActor = Extract<Actor, { kind: 'bot' }>;
type Version = { graph: BotGraph; defaultMessage: string };

/** Published versions never change: read once per process. */
const versions = new Map<string, Version>();
/** Forgets the versions read (a restarted process starts with none; the dialogs' state is in the database). */
export const forgetBotVersions = (): void => versions.clear();
async function versionOf(tx: StageTx, botId: string, version: number): Promise<Version | null> {
  const key = `${botId}:${version}`;
  const cached = versions.get(key);
  if (cached) return cached;
  const row = await Q.versionOf(tx.q, botId, version);
  if (!row) return null;
  const v = { graph: row.graph, defaultMessage: row.default_message };
  if (versions.size > 10_000) versions.clear();
  versions.set(key, v);
  return v;
}

/** Text under buttons for channels that show none: the buttons numbered (a number answers, §3). */
function numbered(text: string, lines: string[]): string {
  return [text.trim(), lines.map((l, i) => `${i + 1}. ${l}`).join('\n')].filter(Boolean).join('\n\n');
}

const label = (s: string) => [...(s.trim() || '…')].slice(0, BUTTON_LIMITS.textMax).join('');

/**
 * Sends one of the bot's outputs as the bot: the reply's text and file, its buttons native where the channel shows
 * buttons (one per row: a postback whose payload is the button's id, or a link through our tracked
 * /bot-action/{id}), else numbered lines under the text.
 */
async function send(
  app: AppContext,
  tx: StageTx,
  actor: BotActor,
  chatId: string,
  channelType: string,
  out: BotOutput,
): Promise<void> {
  const attachments: Attachment[] = [];
  if (out.fileId) {
    const f = await Q.fileOf(tx.q, actor.organisationId, out.fileId);
    if (f)
      attachments.push({
        url: `/api/files/${f.key}`,
        contentType: f.content_type,
        size: f.size,
        ...(out.fileName ? { name: out.fileName } : {}),
      });
  }
  const buttons: Button[] = [];
  const lines: string[] = [];
  for (const b of out.buttons) {
    if (b.url) {
      const id = await Q.insertLink(tx.q, {
        orgId: actor.organisationId,
        botId: actor.botId,
        chatId,
        nodeId: out.nodeId,
        buttonId: b.id,
        url: b.url,
        now: tx.now,
      });
      const url = `${app.config.publicUrl}/bot-action/${id}`;
      buttons.push({ text: label(b.text), url });
      lines.push(`${b.text} — ${url}`);
    } else {
      // The payload is the button's id (Telegram's callback_data holds 64 bytes; a longer id answers by text).
      const payload = utf8Length(b.id) <= BUTTON_LIMITS.payloadMaxBytes ? b.id : `#${buttons.length + 1}`;
      buttons.push({ text: label(b.text), payload });
      lines.push(b.text);
    }
  }
  const { capabilities } = adapterFor(channelType);
  // More buttons than the channel shows under one message: all of them as numbered text (a number answers).
  const fits =
    buttons.length <= Math.min(capabilities.buttonsMax ?? BUTTON_LIMITS.rowsMax, BUTTON_LIMITS.rowsMax);
  let text = out.text;
  let rows: ButtonRows | undefined;
  if (buttons.length && capabilities.buttons && fits) rows = buttons.map((b) => [b]);
  else if (lines.length) text = numbered(text, lines);
  // Telegram shows a keyboard only under a text.
  if (!text.trim() && rows) text = '…';
  if (!text.trim() && !attachments.length) return;
  await writeAutomatedMessage(tx, actor, chatId, { text, internal: false, attachments, buttons: rows });
}

/**
 * The dialog's final action through the same commands operators use, as the bot. Answers whether the chat was placed
 * (closed or transferred); false hands it back to ordinary routing (the final action 'none', or a transfer that
 * cannot be made now: nobody to take it).
 */
async function finish(app: AppContext, tx: StageTx, actor: BotActor, chatId: string, final: BotFinal) {
  let target: TransferTarget | null = null;
  switch (final.type) {
    case 'none':
      return false;
    case 'close':
      try {
        await closeChatTx(app, tx, actor, chatId);
        return true;
      } catch (err) {
        // A closed chat stays closed; a chat the organisation wants categorised before closing goes to people.
        if (err instanceof AppError) return err.code === 'chatClosedException';
        throw err;
      }
    case 'last_operator':
      target = { target: 'last_operator' };
      break;
    case 'personal_manager':
      target = { target: 'personal_manager' };
      break;
    case 'operator':
      target = final.operatorId ? { operatorId: final.operatorId } : null;
      break;
    case 'team':
      target = final.teamId ? { teamId: final.teamId } : null;
      break;
  }
  if (!target) return false;
  try {
    await transferChatTx(tx, actor, chatId, target);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'cannotTransferException') return false;
    throw err;
  }
}

/**
 * Carries out one engine step: the outputs sent, the dialog saved (its state, the message answered, how it ended),
 * then the final action. Answers 'stop' when the bot holds or placed the chat, 'continue' when it handed the chat
 * back to routing (the later stages route it as at its opening).
 */
async function apply(
  app: AppContext,
  tx: StageTx,
  dialog: { id: string; orgId: string; chatId: string; botId: string },
  chat: Q.ChatState,
  step: BotStep,
  messageId: string | null,
): Promise<'stop' | 'continue'> {
  const actor: BotActor = { kind: 'bot', botId: dialog.botId, organisationId: dialog.orgId };
  try {
    for (const out of step.outputs) await send(app, tx, actor, dialog.chatId, chat.channel_type, out);
  } catch (err) {
    // The channel cannot take the bot's reply now (deactivated, session over): the bot ends, people take over.
    if (!(err instanceof AppError)) throw err;
    await Q.saveDialog(tx.q, {
      id: dialog.id,
      state: { ...step.state, ended: true, nodeId: null },
      messageId,
      now: tx.now,
      endReason: err.code,
    });
    return 'continue';
  }
  await Q.saveDialog(tx.q, {
    id: dialog.id,
    state: step.state,
    messageId,
    now: tx.now,
    endReason: step.final ? step.final.type : null,
  });
  if (!step.final) return 'stop';
  return (await finish(app, tx, actor, dialog.chatId, step.final)) ? 'stop' : 'continue';
}

/**
 * Puts a chat into a bot (a routing rule's action chat_bot, §3): a dialog on the bot's published version, started at
 * its root. Answers false when it cannot be done: OPTION_CHAT_BOT off, the bot missing, deleted or never published,
 * or the chat closed or with an operator. `job` is the message that sent the chat there (answered by the start).
 */
export async function startBotDialog(
  app: AppContext,
  tx: StageTx,
  run: StageRun,
  job: PipelineJob,
  botId: string,
): Promise<boolean> {
  const orgId = job.organisation_id;
  if (!(await Q.chatBotsAllowed(tx.q, orgId))) return false;
  const version = await Q.publishedVersion(tx.q, orgId, botId);
  if (!version) return false;
  const chat = await Q.chatState(tx.q, orgId, job.chat_id);
  if (!chat || chat.status === 'closed' || chat.operator_id) return false;
  const row = await Q.insertDialog(tx.q, {
    orgId,
    chatId: job.chat_id,
    botId,
    version: version.version,
    now: tx.now,
  });
  if (!row) return true;
  // The organisation's later client messages must reach the bot stage.
  await setAutomationNeed(tx.q, orgId, 'chat_bots', true);
  const step = startDialog(version.graph, version.default_message, tx.now);
  const dialog = { id: row.id, orgId, chatId: job.chat_id, botId };
  if ((await apply(app, tx, dialog, chat, step, job.message_id)) === 'continue') routeAgain(run, job);
  return true;
}

/**
 * §4 transfer to a chat bot (the operator's transfer with {botId}; the chat is locked and the caller's rights checked
 * by transferChat): the plan must include OPTION_CHAT_BOT and the bot be the organisation's and published. The chat
 * leaves its operator and waits in its team's queue (which skips it while the bot talks); any dialog it had ends;
 * the history records the transfer naming the bot; a new dialog starts at the bot's root node on its current
 * published version and the bot's first reply goes out on the channel. A bot that ends at once without placing
 * the chat (final action 'none') hands it to the team's queue as usual.
 */
export const transferToBot: BotTransfer = async (app, tx, chat, botId, handOver) => {
  const orgId = chat.organisation_id;
  if (!(await Q.chatBotsAllowed(tx.q, orgId)))
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_CHAT_BOT' });
  const version = await Q.publishedVersion(tx.q, orgId, botId);
  if (!version)
    throw new AppError(
      (await Q.botExists(tx.q, orgId, botId)) ? 'chatBotNotPublishedException' : 'chatBotNotFoundException',
    );
  await Q.endDialogOf(tx.q, orgId, chat.id, 'transfer', tx.now);
  await handOver(version.name);
  const row = await Q.insertDialog(tx.q, {
    orgId,
    chatId: chat.id,
    botId,
    version: version.version,
    now: tx.now,
  });
  if (!row) throw new AppError('cannotTransferException');
  await setAutomationNeed(tx.q, orgId, 'chat_bots', true);
  const step = startDialog(version.graph, version.default_message, tx.now);
  const state: Q.ChatState = {
    status: 'waiting',
    operator_id: null,
    channel_type: chat.channel_type,
    team_id: chat.team_id,
  };
  const dialog = { id: row.id, orgId, chatId: chat.id, botId };
  if ((await apply(app, tx, dialog, state, step, null)) === 'continue')
    await distributeWaiting(tx, [chat.team_id]);
};

/** The intent the chat's latest bot dialog recognised: the chat's intent for routing rules (§3), or null. */
export const chatIntentOf = (q: Queryable, chatId: string) => Q.chatIntent(q, chatId);

/**
 * The run's open dialogs by chat (each with its chat's state), read once per run; read again after a dialog of the
 * run ended (its chat may have been placed since).
 */
async function dialogsOf(tx: StageTx, run: StageRun): Promise<Map<string, Q.RunDialogRow>> {
  let byChat = run.memo.get('bot') as Map<string, Q.RunDialogRow> | undefined;
  if (!byChat) {
    const chatIds = [...new Set(run.jobs.map((j) => j.chat_id))];
    byChat = new Map((await Q.openDialogs(tx.q, chatIds)).map((d) => [d.chat_id, d]));
    run.memo.set('bot', byChat);
  }
  return byChat;
}

/** The text and pressed button of the run's messages that reach a dialog, read once per run (one statement). */
async function inboundOf(
  tx: StageTx,
  run: StageRun,
  dialogs: Map<string, Q.RunDialogRow>,
  messageId: string,
) {
  let byId = run.memo.get('bot:inbound') as Map<string, Q.InboundRow> | undefined;
  if (!byId?.has(messageId)) {
    const ids = run.jobs.filter((j) => dialogs.has(j.chat_id)).map((j) => j.message_id);
    if (!ids.includes(messageId)) ids.push(messageId);
    byId = new Map((await Q.inbound(tx.q, ids)).map((m) => [m.id, m]));
    run.memo.set('bot:inbound', byId);
  }
  return byId.get(messageId);
}

/**
 * The pipeline's 'bot' stage: a client message in a chat that talks to a bot is the bot's. The engine steps from the
 * dialog's saved state on the version the dialog started on; the bot answers and the chain stops (no rule, auto-reply
 * or queue for it). A message the bot already answered (a retried job) changes nothing. A chat closed or taken by an
 * operator meanwhile ends its dialog and goes on as any chat.
 */
export async function botStage(
  tx: StageTx,
  job: PipelineJob,
  run: StageRun,
  app: AppContext,
): Promise<'stop' | 'continue'> {
  const dialogs = await dialogsOf(tx, run);
  const dialog = dialogs.get(job.chat_id);
  if (!dialog) return 'continue';
  if (dialog.last_message_id === job.message_id) return 'stop';
  // The chat as the run found it (the reply is written under the chat's lock, which reads it again).
  const chat = dialog.chat;
  if (chat.status === 'closed' || chat.operator_id) {
    await Q.endDialogOf(
      tx.q,
      job.organisation_id,
      job.chat_id,
      chat.operator_id ? 'operator' : 'closed',
      tx.now,
    );
    run.memo.delete('bot');
    return 'continue';
  }
  const version = await versionOf(tx, dialog.bot_id, dialog.version);
  const message = await inboundOf(tx, run, dialogs, job.message_id);
  if (!version || !message) return 'continue';
  const state: BotDialogState = dialog.state;
  const step = stepDialog(
    version.graph,
    version.defaultMessage,
    state,
    { text: message.text, payload: message.payload ?? undefined },
    tx.now,
  );
  // The run's memo follows the dialog (a later message of the same chat in this run steps from here).
  dialog.state = step.state;
  dialog.last_message_id = job.message_id;
  if (step.state.ended) run.memo.delete('bot');
  const d = { id: dialog.id, orgId: job.organisation_id, chatId: job.chat_id, botId: dialog.bot_id };
  const result = await apply(app, tx, d, chat, step, job.message_id);
  if (result === 'continue') routeAgain(run, job);
  return result;
}
