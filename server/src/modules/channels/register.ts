import { stateSlot } from '../../context.ts';
import { registerOutboxHandler } from '../../jobs/outbox.ts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { channelOutbox } from './deliver.ts';
import { runMissedChatDigests } from './digest.ts';
import { refreshProviderTokens } from './oauth.ts';
import { channelPoller } from './poll.ts';

const LAST_DIGEST_RUN = stateSlot('channels.digest-run', () => ({ at: 0 }));

/**
 * Registers the channels' delivery of outbox rows, the pull channels' polls, the renewal of provider tokens and the
 * daily digest of missed chats with the job runner (modules/setup.ts).
 */
export function registerChannelOutbox(): void {
  registerOutboxHandler(channelOutbox);
  registerPoller(channelPoller);
  registerPeriodic('provider-tokens', (app) => refreshProviderTokens(app));
  // The missed-chats digest: looked at once a minute per process (by the app's clock), once a day per channel.
  registerPeriodic('missed-chats-digest', async (app) => {
    const now = app.clock.now().getTime();
    const last = app.state.of(app, LAST_DIGEST_RUN);
    if (Math.abs(now - last.at) < 60_000) return;
    last.at = now;
    await runMissedChatDigests(app);
  });
}
