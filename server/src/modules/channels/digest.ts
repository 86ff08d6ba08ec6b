import type { AppContext } from '../../context.ts';
import { digestMail } from './mails.ts';
import * as Q from './queries.ts';

/** The most chats a digest lists (the rest are counted), and the most channels one run mails. */
export const DIGEST = { listed: 50, batch: 100 };

const chatLink = (app: AppContext, c: Q.MissedChatRow) =>
  `${app.config.publicUrl}/admin/chats?filter=${c.status === 'in_progress' ? 'assigned' : c.status}&chat=${c.id}`;

/**
 * The daily digest of missed chats to each channel's notification e-mail (issue 36): once the organisation's
 * local day has ended, the chats of that day whose client's last message got no operator reply. Each channel and
 * day is claimed first (two instances or a restart never mail twice); a day with nothing missed sends no mail; a
 * mail that fails gives the claim back for the next run. Returns how many mails went out.
 */
export async function runMissedChatDigests(app: AppContext): Promise<number> {
  const now = app.clock.now();
  let sent = 0;
  // One batch a run (the run comes every minute): a channel whose mail failed is not tried again in this run.
  for (const ch of await Q.dueDigests(app.db, now, DIGEST.batch)) {
    if (!(await Q.claimDigest(app.db, { channelId: ch.id, orgId: ch.organisation_id, day: ch.day, now })))
      continue;
    try {
      const rows = await Q.missedChats(app.db, {
        orgId: ch.organisation_id,
        channelId: ch.id,
        day: ch.day,
        tz: ch.time_zone,
        limit: DIGEST.listed,
      });
      const total = rows[0]?.total ?? 0;
      await Q.setDigestMissed(app.db, ch.id, ch.day, total);
      if (!total) continue;
      const time = new Intl.DateTimeFormat(ch.language === 'rus' ? 'ru-RU' : 'en-GB', {
        timeZone: ch.time_zone,
        hour: '2-digit',
        minute: '2-digit',
      });
      await app.mailer.send(
        digestMail(ch.language, ch.notification_email, {
          channelName: ch.name,
          day: ch.day,
          chats: rows.map((c) => ({
            clientName: c.client_name,
            at: time.format(new Date(c.last_at)),
            status: c.status,
            link: chatLink(app, c),
          })),
          more: total - rows.length,
          link: `${app.config.publicUrl}/admin/chats?filter=closed&channelId=${ch.id}`,
        }),
      );
      sent++;
    } catch (err) {
      app.log.error({ err, channel: ch.id, day: ch.day }, 'missed-chats digest not sent');
      await Q.dropDigest(app.db, ch.id, ch.day).catch(() => undefined);
    }
  }
  return sent;
}
