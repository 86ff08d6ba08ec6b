import { Button, Group } from '@mantine/core';
import { useTranslation } from '../i18n/index.ts';

type Props = { onClose: () => void; readOnly: boolean; creating: boolean; pending: boolean };

/** The footer of an add/edit side page: Cancel and Create / Save changes; Close alone when read-only. */
export function FormActions({ onClose, readOnly, creating, pending }: Props) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={onClose}>
        {readOnly ? t('common.close') : t('common.cancel')}
      </Button>
      {!readOnly && (
        <Button type="submit" loading={pending}>
          {creating ? t('common.create') : t('common.saveChanges')}
        </Button>
      )}
    </Group>
  );
}
