/** The text key of an event type's name (`chat.created` -> `webhooks.eventNames.chat_created`: a dot would nest). */
export const eventNameKey = (type: string): string => `webhooks.eventNames.${type.replaceAll('.', '_')}`;
