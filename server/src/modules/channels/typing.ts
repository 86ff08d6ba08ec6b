import { adapterFor } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import * as Q from './queries.ts';
import { adapterChannel, adapterContext } from './service.ts';

type TypingChat = {
  organisation_id: string;
  channel_id: string;
  channel_type: Parameters<typeof adapterFor>[0];
  channel_status: 'active' | 'inactive';
  client_external_id: string;
};

/**
 * An operator is writing in a chat whose provider can show it (the adapter's `typing`): the client sees it there.
 * Best effort, after the workspace's own signal: a failure is the caller's to log, and nothing is retried.
 */
export async function typingToProvider(app: AppContext, chat: TypingChat): Promise<void> {
  const adapter = adapterFor(chat.channel_type);
  if (!adapter.typing || chat.channel_status !== 'active') return;
  const row = await Q.findChannelById(app.db, chat.channel_id);
  if (!row || row.organisation_id !== chat.organisation_id || row.status !== 'active') return;
  await adapter.typing(adapterContext(app), adapterChannel(app, row), {
    externalId: chat.client_external_id,
  });
}
