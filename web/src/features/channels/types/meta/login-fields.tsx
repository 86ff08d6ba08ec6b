import { Alert, Button, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import type { ChannelType, OauthAccountDto, Page } from '@smartconnect/contracts';
import { IconBrandFacebook } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { get, post } from '../../../../shared/api/client.ts';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { channelKeys } from '../../keys.ts';
import type { ChannelTypeUi, OwnFieldsProps, OwnValues } from '../types.ts';

/** The grant our OAuth callback handed back in the page's address (`?connect=<type>&grant=...`), if any. */
export const grantInAddress = (type: string): string => {
  const q = new URLSearchParams(window.location.search);
  return q.get('connect') === type ? (q.get('grant') ?? '') : '';
};

/**
 * Connecting by logging in with Facebook (Instagram, Facebook Messenger): a button to the provider's login, and back
 * here with a grant, the accounts of that login to choose from. Editing shows the connected account.
 */
export function metaLoginFields(type: Extract<ChannelType, 'instagram' | 'facebook'>) {
  return function MetaLoginFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
    const { t } = useTranslation();
    const grant = values.grant ?? '';
    const start = useMutation({
      mutationFn: () => get<{ url: string }>(`/api/channels/oauth/start?type=${type}`),
      onSuccess: ({ url }) => window.location.assign(url),
    });
    const accounts = useQuery({
      queryKey: channelKeys.oauthAccounts(type, grant),
      enabled: !!grant,
      retry: false,
      queryFn: async () =>
        (await post<Page<OauthAccountDto>>('/api/channels/oauth/accounts', { type, grant })).items,
    });
    const loginButton = (label: string) => (
      <Button
        leftSection={<IconBrandFacebook size={18} />}
        variant={grant ? 'default' : 'filled'}
        loading={start.isPending}
        disabled={disabled}
        onClick={() => start.mutate()}
      >
        {t(label)}
      </Button>
    );
    if (editing) {
      const name = [channel?.settings.pageName, channel?.settings.username && `@${channel.settings.username}`]
        .filter((x) => typeof x === 'string' && x)
        .join(' · ');
      return <TextInput label={t(`messengers.${type}.account`)} value={name} readOnly variant="filled" />;
    }
    if (!grant)
      return (
        <Stack gap="xs">
          {loginButton(`messengers.${type}.login`)}
          {errors.grant && (
            <Text c="red" size="sm" role="alert">
              {errors.grant}
            </Text>
          )}
        </Stack>
      );
    const items = accounts.data ?? [];
    return (
      <Stack gap="xs">
        <Text size="sm">{t(`messengers.${type}.loggedIn`)}</Text>
        {accounts.isLoading ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : accounts.isError || errors.grant ? (
          <Alert color="red" variant="light" role="alert">
            {errors.grant ?? t(`messengers.${type}.accountsError`)}
          </Alert>
        ) : items.length === 0 ? (
          <Alert color="yellow" variant="light">
            {t(`messengers.${type}.noAccounts`)}
          </Alert>
        ) : (
          <Select
            label={t(`messengers.${type}.account`)}
            description={t(`messengers.${type}.accountHint`)}
            required
            disabled={disabled}
            data={items.map((a) => ({
              value: a.id,
              label: a.username ? `${a.name} · @${a.username}` : a.name,
            }))}
            value={values.pageId || null}
            error={errors.pageId}
            onChange={(v) => onChange('pageId', v ?? '')}
            allowDeselect={false}
          />
        )}
        {loginButton(`messengers.${type}.loginAgain`)}
      </Stack>
    );
  };
}

/** What Instagram and Facebook share of their web plugin: the login fields and the connected account's line. */
export const metaLoginUi = (
  type: Extract<ChannelType, 'instagram' | 'facebook'>,
): Pick<ChannelTypeUi, 'required' | 'initial' | 'Fields' | 'summary' | 'clientEdits' | 'session'> => ({
  required: ['grant', 'pageId'],
  initial: (c): OwnValues => (c ? {} : { grant: grantInAddress(type), pageId: '' }),
  Fields: metaLoginFields(type),
  summary: (c) =>
    typeof c.settings.username === 'string' && c.settings.username
      ? `@${c.settings.username}`
      : typeof c.settings.pageName === 'string'
        ? c.settings.pageName
        : null,
  clientEdits: false,
  // The Messenger Platform's standard messaging window: no templates to send after it.
  session: {
    hours: 24,
    closesAt: `messengers.session.${type}ClosesAt`,
    ended: `messengers.session.${type}Ended`,
  },
});
