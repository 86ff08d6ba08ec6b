import type { ChannelCreatedDto, ChannelDto, ChannelType } from '@smartconnect/contracts';
import type { ComponentType } from 'react';
import type { ZodType } from 'zod';

/** The type's own fields in the form: strings, as typed (secrets stay empty until the user types a new one). */
export type OwnValues = Record<string, string>;

export type OwnFieldsProps = {
  values: OwnValues;
  errors: Record<string, string | undefined>;
  onChange: (field: string, value: string) => void;
  /** Editing an existing channel: write-only secrets may stay empty (unchanged). */
  editing: boolean;
  /** The channel being edited (its settings, never its secrets). */
  channel?: ChannelDto;
  disabled?: boolean;
};

export type TypeIcon = ComponentType<{ size?: number | string; stroke?: number }>;

/**
 * One channel type of the web app (ARCHITECTURE.md "Channel plugins"): its guide of what to do at the provider,
 * its own settings fields, and what to show once it is created. Listed in `registry.ts`.
 */
export type ChannelTypeUi = {
  type: ChannelType;
  icon: TypeIcon;
  /** i18n keys of the guide's steps, shown in order before the fields. */
  guideSteps: string[];
  /** An optional note under the steps (a requirement of the installation). */
  guideNote?: string;
  /**
   * The own fields a new channel needs ('Please fill in all required fields' when empty); a function of the form's
   * values when they depend on a choice (WhatsApp's provider; VK: logged in, or the manual form).
   */
  required: string[] | ((own: OwnValues) => string[]);
  /** The own fields' starting values: empty when creating, from the channel's settings when editing. */
  initial: (channel?: ChannelDto) => OwnValues;
  Fields: ComponentType<OwnFieldsProps>;
  /** A line under the channel's name in the list (its webhook URL, its bot's username...). */
  summary?: (channel: ChannelDto) => string | null;
  /**
   * The type's session window (WhatsApp, Instagram, Facebook: 24 hours after the client's last message, §4): the
   * chat shows when it closes; after it only the provider's registered templates (`templatesLabel`, an i18n key)
   * can be sent, or nothing until the client writes again for a provider without templates.
   */
  session?: {
    hours: number;
    /**
     * The templates button's label; none: the provider has no templates (Instagram, Facebook) and offers none. Shown
     * only for a chat whose channel has them (`ChatDto.channel.templates`: not a WhatsApp BSP channel).
     */
    templatesLabel?: string;
    /** i18n keys of 'closes at {{time}}' and 'ended' (default: WhatsApp's, `messengers.session.*`). */
    closesAt?: string;
    ended?: string;
  };
  /** False when the provider cannot change a message the client already has (WhatsApp): only notes are edited. */
  clientEdits?: boolean;
  /** Shown after creation, e.g. the API channel's keys (once); none closes the guide with a toast. */
  Created?: ComponentType<{ channel: ChannelCreatedDto; onClose: () => void }>;
  /** The guide's intro text (i18n key); default `channels.guide.<type>.intro`. */
  guideIntro?: string;
  /**
   * For types whose own fields nest (the mailbox's `receive`/`send` servers): the own part of the body from the
   * flat form values (editing: only what changed, given the initial values), and an API field path as a form key.
   */
  toBody?: (own: OwnValues, initialOwn?: OwnValues) => Record<string, unknown>;
  fieldOf?: (apiPath: string) => string;
  /** The type's own fields of an update, when not the create fields made partial. */
  updateSchema?: ZodType;
};
