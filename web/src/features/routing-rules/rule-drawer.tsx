import { Alert, Drawer, MultiSelect, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  BOT_INTENTS,
  type RoutingRuleDto,
  RULE_ACTIONS,
  RULE_CLIENTS,
  RULE_MARKETING_TYPES,
  RULE_MESSAGE_TYPES,
  routingRuleCreateSchema,
} from '@smartconnect/contracts';
import { IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showServerErrors, zodValidate } from '../../shared/form.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { FormActions } from '../../shared/ui/form-actions.tsx';
import { useChannels } from '../channels/api.ts';
import { useChatBots } from '../chat-bots/api.ts';
import { useTeams } from '../teams/api.ts';
import { createRule, type RuleInput, updateRule } from './api.ts';
import { ruleKeys } from './keys.ts';

type Props = { rule: RoutingRuleDto | null; opened: boolean; onClose: () => void };

/** Create or edit a routing rule: conditions and action; the default rule opens read-only. */
export function RuleDrawer({ rule, opened, onClose }: Props) {
  const { t } = useTranslation();
  const readOnly = !!rule?.isDefault;
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={t(
        readOnly ? 'routingRules.viewTitle' : rule ? 'routingRules.editTitle' : 'routingRules.newTitle',
      )}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {opened && <RuleEditor key={rule?.id ?? 'new'} rule={rule} readOnly={readOnly} onClose={onClose} />}
    </Drawer>
  );
}

type Values = Omit<RuleInput, 'conditions' | 'action'> & {
  enabled: boolean;
  conditions: Omit<RuleInput['conditions'], 'marketingType'> & { marketingType: string | null };
  action: { type: RuleInput['action']['type']; teamId: string | null; botId: string | null };
};

/** The body the API takes: 'any' marketing type is no marketing type; only a team action names a team. */
const toBody = (v: Values): RuleInput & { enabled: boolean } => ({
  name: v.name,
  enabled: v.enabled,
  conditions: {
    ...v.conditions,
    marketingType: (v.conditions.marketingType ?? undefined) as RuleInput['conditions']['marketingType'],
  },
  action: {
    type: v.action.type,
    ...(v.action.type === 'team' ? { teamId: v.action.teamId ?? undefined } : {}),
    ...(v.action.type === 'chat_bot' ? { botId: v.action.botId ?? undefined } : {}),
  },
});

function RuleEditor({
  rule,
  readOnly,
  onClose,
}: {
  rule: RoutingRuleDto | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const teams = useTeams();
  const channels = useChannels();
  const botsOn = useAccess().has('OPTION_CHAT_BOT');
  const bots = useChatBots(botsOn);
  const form = useForm<Values>({
    initialValues: {
      name: rule?.isDefault ? t('routingRules.defaultName') : (rule?.name ?? ''),
      enabled: rule?.enabled ?? true,
      conditions: {
        clients: rule?.conditions.clients ?? 'any',
        channelIds: rule?.conditions.channelIds ?? [],
        messageType: rule?.conditions.messageType ?? 'client',
        marketingType: rule?.conditions.marketingType ?? null,
        intentsInclude: rule?.conditions.intentsInclude ?? [],
        intentsExclude: rule?.conditions.intentsExclude ?? [],
      },
      action: {
        type: rule?.action.type ?? 'team',
        teamId: rule?.action.teamId ?? null,
        botId: rule?.action.botId ?? null,
      },
    },
    validate: zodValidate(routingRuleCreateSchema, toBody),
  });
  const save = useMutation({
    meta: { form: true },
    mutationFn: (v: Values) => (rule ? updateRule(rule.id, toBody(v)) : createRule(toBody(v))),
    onSuccess: async () => {
      notifySuccess(t(rule ? 'routingRules.changed' : 'routingRules.created'));
      await client.invalidateQueries({ queryKey: ruleKeys.all });
      onClose();
    },
    onError: (err) => showServerErrors(form, err),
  });
  const options = <T extends string>(values: readonly T[], ns: string) =>
    values.map((value) => ({ value, label: t(`routingRules.${ns}.${value}`) }));
  const intents = options(BOT_INTENTS, 'intents');
  // Chat bots need the plan's OPTION_CHAT_BOT: without it the choice is shown but cannot be made.
  const actions = RULE_ACTIONS.map((value) => ({
    value,
    label: t(`routingRules.actions.${value}`),
    disabled: value === 'chat_bot' && !botsOn,
  }));
  const disabled = readOnly;
  if (readOnly)
    return (
      <Stack gap="md">
        <Alert variant="light" color="gray" icon={<IconLock size={18} />}>
          {t('routingRules.defaultText')}
        </Alert>
        <FormActions onClose={onClose} readOnly creating={false} pending={false} />
      </Stack>
    );
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        <TextInput
          label={t('routingRules.name')}
          withAsterisk={!readOnly}
          disabled={disabled}
          {...form.getInputProps('name')}
        />
        <Select
          label={t('routingRules.clients')}
          data={options(RULE_CLIENTS, 'clientsOptions')}
          allowDeselect={false}
          disabled={disabled}
          {...form.getInputProps('conditions.clients')}
        />
        <MultiSelect
          label={t('routingRules.channels')}
          placeholder={form.values.conditions.channelIds.length ? undefined : t('routingRules.allChannels')}
          data={(channels.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          searchable
          disabled={disabled}
          {...form.getInputProps('conditions.channelIds')}
        />
        <Select
          label={t('routingRules.messageType')}
          data={options(RULE_MESSAGE_TYPES, 'messageTypes')}
          allowDeselect={false}
          disabled={disabled}
          {...form.getInputProps('conditions.messageType')}
        />
        <Select
          label={t('routingRules.marketingType')}
          placeholder={t('routingRules.anyMarketing')}
          data={options(RULE_MARKETING_TYPES, 'marketingTypes')}
          clearable
          disabled={disabled}
          {...form.getInputProps('conditions.marketingType')}
        />
        <MultiSelect
          label={t('routingRules.intentsInclude')}
          description={t('routingRules.intentsHint')}
          data={intents}
          disabled={disabled}
          {...form.getInputProps('conditions.intentsInclude')}
        />
        <MultiSelect
          label={t('routingRules.intentsExclude')}
          data={intents}
          disabled={disabled}
          {...form.getInputProps('conditions.intentsExclude')}
        />
        <Select
          label={t('routingRules.action')}
          withAsterisk={!readOnly}
          data={actions}
          allowDeselect={false}
          disabled={disabled}
          {...form.getInputProps('action.type')}
        />
        {form.values.action.type === 'team' && !readOnly && (
          <Select
            label={t('routingRules.team')}
            withAsterisk
            searchable
            nothingFoundMessage={t('channels.noTeams')}
            data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            {...form.getInputProps('action.teamId')}
          />
        )}
        {form.values.action.type === 'chat_bot' && !readOnly && (
          <Select
            label={t('chatBots.title')}
            withAsterisk
            searchable
            data={(bots.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            {...form.getInputProps('action.botId')}
          />
        )}
        {!readOnly && (
          <Switch
            label={t('routingRules.enabled')}
            {...form.getInputProps('enabled', { type: 'checkbox' })}
          />
        )}
        <FormActions onClose={onClose} readOnly={readOnly} creating={!rule} pending={save.isPending} />
      </Stack>
    </form>
  );
}
