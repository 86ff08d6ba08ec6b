export const firstRun = {
  title: 'Get started',
  hint: 'Three steps to your first customer chat.',
  channel: 'Connect a channel',
  colleague: 'Invite a colleague',
  widget: 'Try the website chat as a visitor',
  done: 'done',
  todo: 'not done yet',
  dismiss: 'Hide the checklist',
};
