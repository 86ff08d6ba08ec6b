import { Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { LIMITS } from '@smartconnect/contracts/constants';
import { IconPhotoUp } from '@tabler/icons-react';
import { useState } from 'react';
import { initialsOf } from '../bidi.ts';
import { useTranslation } from '../i18n/index.ts';

type Props = {
  name: string;
  photoUrl: string | null;
  onFile: (file: File) => void;
  onRemove?: () => void;
  busy?: boolean;
};

/** §5 avatar: a JPEG of at most 200 KB, dropped or chosen by click. */
export function AvatarDrop({ name, photoUrl, onFile, onRemove, busy }: Props) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const reject = (rejections: FileRejection[]) => {
    const tooBig = rejections.some((r) => r.errors.some((e) => e.code === 'file-too-large'));
    setError(t(tooBig ? 'avatar.tooBig' : 'avatar.wrongType'));
  };
  return (
    <Group align="center" gap="lg" wrap="nowrap">
      <Avatar
        src={photoUrl}
        name={name.trim() ? initialsOf(name) : undefined}
        color={name.trim() ? 'initials' : 'gray'}
        size={84}
        radius={84}
      />
      <Stack gap={6} style={{ flex: 1 }}>
        <Dropzone
          onDrop={(files) => {
            setError(null);
            if (files[0]) onFile(files[0]);
          }}
          onReject={reject}
          accept={['image/jpeg']}
          maxSize={LIMITS.avatarMaxBytes}
          multiple={false}
          loading={busy}
          radius="md"
          p="md"
          data-testid="avatar-drop"
          inputProps={{ 'aria-label': t('avatar.drop') }}
        >
          <Group gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
            <IconPhotoUp size={28} stroke={1.5} color="var(--mantine-color-brand-6)" />
            <div>
              <Text size="sm" fw={500}>
                {t('avatar.drop')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('avatar.limits')}
              </Text>
            </div>
          </Group>
        </Dropzone>
        {error && (
          <Text size="xs" c="red" role="alert">
            {error}
          </Text>
        )}
        {photoUrl && onRemove && (
          <Button variant="subtle" color="red" size="compact-xs" w="fit-content" onClick={onRemove}>
            {t('avatar.remove')}
          </Button>
        )}
      </Stack>
    </Group>
  );
}
