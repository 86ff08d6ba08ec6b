import { Badge } from '@mantine/core';
import type { SmsImportStatus } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';

const COLORS: Record<SmsImportStatus, string> = {
  mapping: 'orange',
  running: 'blue',
  done: 'teal',
  failed: 'red',
};

export function SmsImportStatusBadge({ status }: { status: SmsImportStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={COLORS[status]} data-testid="sms-import-status" data-status={status}>
      {t(`smsImport.status.${status}`)}
    </Badge>
  );
}
