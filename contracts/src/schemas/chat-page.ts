import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { siteChatCreateFields } from './widget.ts';

/** A chat page's address `/c/{slug}`: lower-case letters, digits and inner hyphens, 3 to 64 characters. */
export const CHAT_PAGE_SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;

/**
 * The `chat_page` channel (§3, issue 34): a hosted full-page chat at a shareable address, built on the site widget
 * (its title, logo, subtitle and welcome message). `slug` names the address; left out, one is made.
 */
export const chatPageCreateFields = siteChatCreateFields.extend({
  slug: z.string(M.valueIncorrect).trim().toLowerCase().regex(CHAT_PAGE_SLUG, M.valueIncorrect).optional(),
});
