import { registerStage } from '../../jobs/pipeline.ts';
import { plug } from '../../plug-points.ts';
import { CLOSE_STEPS } from '../conversation/close-chat.ts';
import { HAND_OVER_STEPS } from '../conversation/lifecycle.ts';
import { BOT_TRANSFER } from '../conversation/transfer-chat.ts';
import * as Q from './queries.ts';
import { botStage, transferToBot } from './runtime.ts';

/** The bot runtime's slot in the pipeline, and its ends: an operator taking a chat over, the chat closing. */
export function registerBotRuntime(): void {
  registerStage('bot', botStage);
  plug(BOT_TRANSFER, transferToBot);
  plug(HAND_OVER_STEPS, (tx, orgId, chatId) =>
    Q.endDialogOf(tx.q, orgId, chatId, 'operator', tx.now).then(() => {}),
  );
  plug(CLOSE_STEPS, (_app, tx, chat) =>
    Q.endDialogOf(tx.q, chat.organisation_id, chat.id, 'closed', tx.now).then(() => {}),
  );
}
