import {
  Alert,
  Button,
  Divider,
  List,
  Loader,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { ChannelCreatedDto, OauthAccountDto, Page } from '@smartconnect/contracts';
import { IconBrandVk } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { get, post } from '../../../../shared/api/client.ts';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { CallbackCreatedModal, callbackUrl } from '../../channel-key-modal.tsx';
import { channelKeys } from '../../keys.ts';
import type { ChannelTypeUi, OwnFieldsProps, OwnValues } from '../types.ts';

/**
 * Logging in with VK (the guide: authorise, choose a community, save): back from the first authorisation the
 * address has `grant` (the user's login, kept here as `login`) and lists the communities the user manages; the
 * chosen one's second authorisation comes back with `grant` and `account` (that community's token, sealed), which
 * is saved with `{grant, groupId}`; we then set up the Callback API ourselves.
 */
function VkLogin({ values, errors, onChange, disabled }: OwnFieldsProps) {
  const { t } = useTranslation();
  const login = values.login ?? '';
  const grant = values.grant ?? '';
  const start = useMutation({
    mutationFn: (accountId?: string) =>
      get<{ url: string }>(
        `/api/channels/oauth/start?type=vk_bot${accountId ? `&accountId=${encodeURIComponent(accountId)}` : ''}`,
      ),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const accounts = useQuery({
    queryKey: channelKeys.oauthAccounts('vk_bot', login),
    enabled: !!login && !grant,
    retry: false,
    queryFn: async () =>
      (await post<Page<OauthAccountDto>>('/api/channels/oauth/accounts', { type: 'vk_bot', grant: login }))
        .items,
  });
  // Back from the community's authorisation: its name (groups.getById with its token) for the note.
  const community = useQuery({
    queryKey: channelKeys.oauthAccounts('vk_bot', grant),
    enabled: !!grant,
    retry: false,
    queryFn: async () =>
      (await post<Page<OauthAccountDto>>('/api/channels/oauth/accounts', { type: 'vk_bot', grant }))
        .items[0] ?? null,
  });
  const loginButton = (label: string, filled: boolean) => (
    <Button
      leftSection={<IconBrandVk size={18} />}
      variant={filled ? 'filled' : 'default'}
      loading={start.isPending && !start.variables}
      disabled={disabled}
      onClick={() => start.mutate(undefined)}
    >
      {t(label)}
    </Button>
  );
  const steps = (
    <List type="ordered" size="sm" spacing={4} data-testid="vk-login-steps">
      <List.Item>{t('messengers.vk.oauth.step1')}</List.Item>
      <List.Item>{t('messengers.vk.oauth.step2')}</List.Item>
      <List.Item>{t('messengers.vk.oauth.step3')}</List.Item>
    </List>
  );
  if (grant)
    return (
      <Stack gap="xs">
        <Alert color="green" variant="light" data-testid="vk-community-authorised">
          {community.isLoading ? (
            <Loader size="xs" aria-label={t('common.loading')} />
          ) : (
            // Its id when VK does not name it now (the channel is still saved with the community's id).
            t('messengers.vk.oauth.authorised', { name: community.data?.name ?? values.groupId })
          )}
        </Alert>
        {errors.grant && (
          <Text c="red" size="sm" role="alert">
            {errors.grant}
          </Text>
        )}
        {loginButton('messengers.vk.oauth.loginAgain', false)}
      </Stack>
    );
  if (login) {
    const items = accounts.data ?? [];
    return (
      <Stack gap="xs">
        {steps}
        <Text size="sm">{t('messengers.vk.oauth.loggedIn')}</Text>
        {accounts.isLoading ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : accounts.isError ? (
          <Alert color="red" variant="light" role="alert">
            {t('messengers.vk.oauth.accountsError')}
          </Alert>
        ) : items.length === 0 ? (
          <Alert color="yellow" variant="light">
            {t('messengers.vk.oauth.noAccounts')}
          </Alert>
        ) : (
          <Select
            label={t('messengers.vk.community')}
            description={t('messengers.vk.oauth.communityHint')}
            required
            disabled={disabled}
            data={items.map((a) => ({
              value: a.id,
              label: a.username ? `${a.name} · vk.com/${a.username}` : a.name,
            }))}
            value={values.groupId || null}
            error={errors.groupId}
            onChange={(v) => onChange('groupId', v ?? '')}
            allowDeselect={false}
          />
        )}
        <Button
          leftSection={<IconBrandVk size={18} />}
          disabled={disabled || !values.groupId}
          loading={start.isPending && !!start.variables}
          onClick={() => start.mutate(values.groupId)}
        >
          {t('messengers.vk.oauth.authoriseCommunity')}
        </Button>
        {loginButton('messengers.vk.oauth.loginAgain', false)}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      {steps}
      {loginButton('messengers.vk.oauth.login', true)}
      <Divider label={t('messengers.vk.oauth.manual')} labelPosition="center" />
    </Stack>
  );
}

/**
 * The community (its id) and the Callback API's confirmation string are settings (shown again); the community
 * token and the secret key are write-only (empty: unchanged when editing).
 */
function VkBotFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const name = channel?.settings.name;
  const text = (field: string, placeholder: string, numeric = false) => (
    <TextInput
      label={t(`messengers.vk.${field}`)}
      description={t(`messengers.vk.${field}Hint`)}
      required
      disabled={disabled}
      inputMode={numeric ? 'numeric' : undefined}
      autoComplete="off"
      placeholder={placeholder}
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  const secret = (field: string) => (
    <PasswordInput
      label={t(`messengers.vk.${field}`)}
      description={t(editing ? 'messengers.vk.keep' : `messengers.vk.${field}Hint`)}
      required={!editing}
      disabled={disabled}
      autoComplete="off"
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  if (!editing && (values.grant || values.login))
    return (
      <VkLogin values={values} errors={errors} onChange={onChange} editing={editing} disabled={disabled} />
    );
  return (
    <>
      {!editing && (
        <VkLogin values={values} errors={errors} onChange={onChange} editing={editing} disabled={disabled} />
      )}
      {typeof name === 'string' && (
        <TextInput label={t('messengers.vk.community')} value={name} readOnly variant="filled" />
      )}
      {channel && (
        <TextInput
          label={t('messengers.vk.callbackUrl')}
          value={callbackUrl(channel)}
          readOnly
          variant="filled"
          data-testid="vk-callback-url"
        />
      )}
      {secret('token')}
      {text('groupId', '218123456', true)}
      {text('confirmation', '1a2b3c4d')}
      {secret('secret')}
    </>
  );
}

/** Back from VK's login: `?connect=vk_bot&grant=...` (and `&account=<community id>` after the second one). */
const inAddress = () => {
  const q = new URLSearchParams(window.location.search);
  const ours = q.get('connect') === 'vk_bot';
  return { grant: ours ? (q.get('grant') ?? '') : '', account: ours ? (q.get('account') ?? '') : '' };
};

/** After creation: the Callback API server to add in the community, which VK confirms with our answer. */
function VkBotCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  // Logged in with VK: we added the Callback API server ourselves, nothing is left to do in VK.
  const automatic = channel.settings.callbackServerId != null;
  useEffect(() => {
    if (automatic) onClose();
  }, [automatic, onClose]);
  if (automatic) return null;
  return (
    <CallbackCreatedModal
      channel={channel}
      onClose={onClose}
      testId="vk-callback-url"
      texts={{
        title: 'messengers.vk.serverTitle',
        text: 'messengers.vk.serverText',
        url: 'messengers.vk.callbackUrl',
        steps: ['messengers.vk.serverStep1', 'messengers.vk.serverStep2'],
        done: 'messengers.vk.done',
      }}
    />
  );
}

/**
 * A VK community bot: the admin authorises a community token (messages, photos, docs), chooses the community by
 * its id (checked with VK) and saves; VK then posts to our Callback API URL, confirmed with the string given.
 */
export const vkBotChannel: ChannelTypeUi = {
  type: 'vk_bot',
  icon: IconBrandVk,
  guideSteps: [
    'messengers.vk.guide.step1',
    'messengers.vk.guide.step2',
    'messengers.vk.guide.step3',
    'messengers.vk.guide.step4',
  ],
  guideNote: 'messengers.vk.guide.note',
  required: (own) =>
    own.grant
      ? ['grant', 'groupId']
      : own.login
        ? ['groupId']
        : ['token', 'groupId', 'confirmation', 'secret'],
  initial: (c) => ({
    token: '',
    groupId: typeof c?.settings.groupId === 'string' ? c.settings.groupId : c ? '' : inAddress().account,
    confirmation: typeof c?.settings.confirmation === 'string' ? c.settings.confirmation : '',
    secret: '',
    ...(c ? {} : inAddress().account ? { grant: inAddress().grant } : { login: inAddress().grant }),
  }),
  // Logged in: the community token's grant and the community; else the manual form's fields.
  toBody: (own: OwnValues, initialOwn?: OwnValues) => {
    if (own.grant) return { grant: own.grant, groupId: own.groupId };
    const { login: _login, grant: _grant, ...manual } = own;
    return Object.fromEntries(
      Object.entries(manual).filter(([k, x]) =>
        initialOwn ? x.trim() !== '' && x !== initialOwn[k] : x.trim() !== '',
      ),
    );
  },
  Fields: VkBotFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.screenName === 'string' && c.settings.screenName
      ? `vk.com/${c.settings.screenName}`
      : null,
  Created: VkBotCreated,
};
