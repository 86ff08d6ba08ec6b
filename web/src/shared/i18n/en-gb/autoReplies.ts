export const autoReplies = {
  intro:
    'Messages the system sends to the client by itself, on this channel. Each one goes at most once: online or offline when the client starts waiting, the holding phrase once per wait for an operator’s answer.',
  text: 'Reply text',
  counter: '{{count}} of {{max}} characters',
  wait: 'Send after',
  minutes: '{{count}} min',
  online: {
    title: 'When operators are online',
    hint: 'Sent when a client opens a chat while an operator of the chat’s team is in work.',
    placeholder: 'Hello! An operator will answer you in a moment.',
  },
  offline: {
    title: 'When operators are offline',
    hint: 'Sent when a client writes and nobody of the chat’s team is in work; again after an operator’s answer if nobody is in work then.',
    placeholder: 'We are offline now and will answer as soon as we are back.',
  },
  rating: {
    title: 'Dialog rating request',
    hint: 'The text that asks the client to rate the dialog (when the channel’s service assessment is on).',
    placeholder: 'Please rate our conversation.',
  },
  holding: {
    title: 'Holding phrase',
    hint: 'Sent when the client has waited this long without an operator’s answer while an operator of the team is in work; once per wait.',
    placeholder: 'Thank you for waiting, an operator will answer soon.',
  },
};
