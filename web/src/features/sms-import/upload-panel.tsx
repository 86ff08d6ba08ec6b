import { Alert, Group, Input, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { SMS_IMPORT_LIMITS, type SmsImportDto } from '@smartconnect/contracts';
import { IconAlertTriangle, IconFileSpreadsheet } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isApiError } from '../../shared/api/errors.ts';
import { translateError, useTranslation } from '../../shared/i18n/index.ts';
import { uploadSmsImport } from './api.ts';

const MAX_MB = SMS_IMPORT_LIMITS.fileMaxBytes / 1024 / 1024;
const FILE_REASONS = ['not_a_table', 'encoding', 'too_large', 'too_many_rows', 'broken', 'no_rows'];

/** The export file: dropped or chosen (keyboard: Enter or Space on the drop area), checked here, then uploaded. */
export function UploadPanel({
  channelId,
  onUploaded,
}: {
  channelId: string | null;
  onUploaded: (dto: SmsImportDto) => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => uploadSmsImport(channelId ?? '', file),
    meta: { form: true },
    onSuccess: onUploaded,
    onError: (err) => {
      if (!isApiError(err)) return setError(translateError('unknownException'));
      const reason = typeof err.details?.reason === 'string' ? err.details.reason : '';
      const text =
        err.code === 'fileUploadException' && FILE_REASONS.includes(reason)
          ? t(`smsImport.fileErrors.${reason}`, { max: SMS_IMPORT_LIMITS.rowsMax.toLocaleString() })
          : err.code === 'payloadTooLargeException'
            ? t('smsImport.fileErrors.too_large')
            : translateError(err.code);
      setError(t('smsImport.uploadFailed', { reason: text }));
    },
  });
  const take = (files: File[]) => {
    const file = files[0];
    if (!file || !channelId) return;
    setError(null);
    if (!/\.(csv|xlsx)$/i.test(file.name)) return setError(t('smsImport.wrongType', { name: file.name }));
    if (file.size > SMS_IMPORT_LIMITS.fileMaxBytes)
      return setError(t('smsImport.tooBig', { name: file.name, max: MAX_MB }));
    upload.mutate(file);
  };
  return (
    <Input.Wrapper label={t('smsImport.file')} description={t('smsImport.fileHint', { max: MAX_MB })}>
      <Stack gap="xs" mt={6}>
        <Dropzone
          onDrop={take}
          onReject={(rejected) => take(rejected.map((r) => r.file))}
          multiple={false}
          loading={upload.isPending}
          disabled={!channelId}
          radius="md"
          p="lg"
          data-testid="sms-import-drop"
          aria-describedby={hintId}
          inputProps={{ 'aria-label': t('smsImport.dropLabel'), 'data-testid': 'sms-import-file' } as object}
        >
          <Group gap="sm" wrap="nowrap" justify="center" style={{ pointerEvents: 'none' }}>
            <IconFileSpreadsheet size={30} stroke={1.5} color="var(--mantine-color-brand-6)" />
            <Text size="sm" fw={500} id={hintId}>
              {upload.isPending && upload.variables
                ? t('smsImport.uploading', { name: upload.variables.name })
                : t('smsImport.drop')}
            </Text>
          </Group>
        </Dropzone>
        {error && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            role="alert"
            data-testid="sms-import-error"
          >
            {error}
          </Alert>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
