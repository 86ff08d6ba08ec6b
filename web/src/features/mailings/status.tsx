import { Badge } from '@mantine/core';
import type { MailingDto, MailingStatus } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';

const COLORS: Record<MailingStatus, string> = {
  draft: 'gray',
  scheduled: 'violet',
  sending: 'blue',
  paused: 'orange',
  finished: 'teal',
  cancelled: 'red',
};

export function MailingStatusBadge({ status }: { status: MailingStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={COLORS[status]} data-testid="mailing-status" data-status={status}>
      {t(`mailings.status.${status}`)}
    </Badge>
  );
}

/** How far sending got: the recipients sent to, failed or skipped, of all of them (0..100). */
export function progressOf(stats: MailingDto['stats']): number {
  if (!stats.recipients) return 0;
  return Math.min(100, Math.round(((stats.sent + stats.failed + stats.skipped) / stats.recipients) * 100));
}
