import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ChannelCreatedDto, ChannelDto } from '@smartconnect/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { updateChannel } from '../../api.ts';
import { Copyable } from '../../channel-key-modal.tsx';
import { channelKeys } from '../../keys.ts';

/** The identity secret, shown once (after creation or rotation), with the reminder to keep it in the backend. */
export function IdentitySecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('channels.mobileApp.identitySecret')} size="lg">
      <Stack>
        <Alert color="yellow">{t('channels.mobileApp.identityOnce')}</Alert>
        <Copyable
          label={t('channels.mobileApp.identitySecret')}
          value={secret}
          testId="mobile-app-identity-secret"
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('channels.mobileApp.saved')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** After creation: the identity secret, this once. */
export function MobileAppCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  return channel.identitySecret ? (
    <IdentitySecretModal secret={channel.identitySecret} onClose={onClose} />
  ) : null;
}

/** Editing: which secret is in use (its last characters) and making a new one, after a confirmation. */
export function IdentitySecretRotation({ channel, disabled }: { channel: ChannelDto; disabled?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: () => updateChannel(channel.id, { rotateIdentitySecret: true }),
    onSuccess: (updated) => {
      setConfirming(false);
      setShown((updated as ChannelCreatedDto).identitySecret ?? null);
      void queryClient.invalidateQueries({ queryKey: channelKeys.one(channel.id) });
    },
  });
  const end =
    typeof channel.settings.identitySecretEnd === 'string' ? channel.settings.identitySecretEnd : '';
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {t('channels.mobileApp.identitySecret')}
      </Text>
      <Group justify="space-between">
        <Text size="sm" c="gray.7">
          {t('channels.mobileApp.identityEnd', { end })}
        </Text>
        <Button
          variant="light"
          size="xs"
          disabled={disabled}
          onClick={() => setConfirming(true)}
          data-testid="mobile-app-rotate"
        >
          {t('channels.mobileApp.rotate')}
        </Button>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('channels.mobileApp.rotate')}>
        <Stack>
          <Text size="sm">{t('channels.mobileApp.rotateConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={rotate.isPending} onClick={() => rotate.mutate()}>
              {t('channels.mobileApp.rotate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {shown && <IdentitySecretModal secret={shown} onClose={() => setShown(null)} />}
    </Stack>
  );
}
