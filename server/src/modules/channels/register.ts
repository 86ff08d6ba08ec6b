import { registerOutboxHandler } from '../../jobs/outbox.ts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { registerPoller } from '../../jobs/polls.ts';
import { channelOutbox } from './deliver.ts';
import { runMissedChatDigests } from './digest.ts';
import { refreshProviderTokens } from './oauth.ts';
import { channelPoller } from './poll.ts';

/**
 * Registers the channels' delivery of outbox rows, the pull channels' polls, the renewal of provider tokens and the
 * daily digest of missed chats with the job runner (modules/setup.ts).
 */
export function registerChannelOutbox(): void {
  registerOutboxHandler(channelOutbox);
  registerPoller(channelPoller);
  registerPeriodic('provider-tokens', (app) => refreshProviderTokens(app));
  // The missed-chats digest: looked at once a minute per process (by the app's clock), once a day per channel.
  let lastDigestRun = 0;
  registerPeriodic('missed-chats-digest', async (app) => {
    const now = app.clock.now().getTime();
    if (Math.abs(now - lastDigestRun) < 60_000) return;
    lastDigestRun = now;
    await runMissedChatDigests(app);
  });
}
