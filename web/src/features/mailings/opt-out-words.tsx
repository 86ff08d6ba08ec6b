import { Badge, Button, Group, Modal, Stack, TagsInput, Text } from '@mantine/core';
import { MAILING_LIMITS, type MailingSettingsDto } from '@smartconnect/contracts';
import { IconHandStop } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showServerErrors } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { saveMailingSettings, useMailingSettings } from './api.ts';
import { mailingKeys } from './keys.ts';

/** The longest opt-out word the server takes (contracts: mailingSettingsSchema). */
const WORD_MAX = 50;

/** The header's button and its modal: the words that, answered alone to a mailing, stop advertising. */
export function OptOutWordsButton() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconHandStop size={18} aria-hidden />}
        onClick={() => setOpened(true)}
        data-testid="opt-out-words"
      >
        {t('mailings.optOut.button')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('mailings.optOut.title')}
        size="lg"
        data-testid="opt-out-words-modal"
      >
        {opened && <OptOutWordsContent onClose={() => setOpened(false)} />}
      </Modal>
    </>
  );
}

function OptOutWordsContent({ onClose }: { onClose: () => void }) {
  const settings = useMailingSettings(true);
  if (settings.isLoading) return <SectionLoader />;
  if (!settings.data)
    return <ErrorState onRetry={() => void settings.refetch()} retrying={settings.isFetching} />;
  return <OptOutWordsForm settings={settings.data} onClose={onClose} />;
}

function OptOutWordsForm({ settings, onClose }: { settings: MailingSettingsDto; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [words, setWords] = useState<string[]>(settings.optOutWords);
  const [error, setError] = useState<string | null>(null);
  const check = (list: string[]): string | null =>
    list.length === 0
      ? t('mailings.optOut.required')
      : list.length > MAILING_LIMITS.optOutWordsMax
        ? t('mailings.optOut.tooMany', { max: MAILING_LIMITS.optOutWordsMax })
        : list.some((w) => w.trim().length > WORD_MAX)
          ? t('mailings.optOut.tooLong', { length: WORD_MAX })
          : null;
  const save = useMutation({
    meta: { form: true },
    mutationFn: (next: string[] | null) => saveMailingSettings(next),
    onSuccess: (saved, next) => {
      client.setQueryData(mailingKeys.settings, saved);
      notifySuccess(t(next ? 'mailings.optOut.saved' : 'mailings.optOut.resetDone'));
      onClose();
    },
    onError: (err) =>
      showServerErrors(
        {
          // The words as a whole or one of them (optOutWords.3): one message under the input.
          setErrors: (errors) => {
            const found = Object.entries(errors).find(([k]) => k.startsWith('optOutWords'));
            setError(found?.[1] || Object.values(errors)[0] || null);
          },
        },
        err,
      ),
  });
  const submit = () => {
    const problem = check(words);
    setError(problem);
    if (!problem) save.mutate(words.map((w) => w.trim()));
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Text size="sm">{t('mailings.optOut.explanation')}</Text>
        <Group gap="xs">
          <Badge variant="light" color={settings.custom ? 'blue' : 'gray'} data-testid="opt-out-words-kind">
            {t(settings.custom ? 'mailings.optOut.custom' : 'mailings.optOut.defaults')}
          </Badge>
        </Group>
        <TagsInput
          label={t('mailings.optOut.words')}
          description={t('mailings.optOut.wordsHint', {
            max: MAILING_LIMITS.optOutWordsMax,
            length: WORD_MAX,
          })}
          value={words}
          onChange={(next) => {
            setWords(next);
            // Once shown, the error follows the list (it goes when the list is right again).
            if (error) setError(check(next));
          }}
          error={error}
          withAsterisk
          clearable={false}
          data-testid="opt-out-words-input"
        />
        <Group justify="space-between" gap="sm">
          {settings.custom ? (
            <Button
              variant="subtle"
              color="gray"
              onClick={() => save.mutate(null)}
              loading={save.isPending && save.variables === null}
              disabled={save.isPending}
              data-testid="opt-out-words-reset"
            >
              {t('mailings.optOut.reset')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={save.isPending && save.variables !== null}
              disabled={save.isPending}
              data-testid="opt-out-words-save"
            >
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
