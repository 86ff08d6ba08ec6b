export const siteChat = {
  previewTitle: 'Your site, with its chat',
  previewText: 'This is a sample page of a site with the website chat installed, as a visitor sees it.',
  previewHint:
    "Open the chat at the bottom right and write: the message arrives in the chat center of the channel's team.",
  previewBack: 'Back to SmartConnect',
  tryIt: 'Try it on a sample page',
  snippet: 'Code for your site',
  snippetHint:
    'Paste this tag into every page of your site, before </body>. The chat button appears in the corner.',
  copy: 'Copy code',
  copied: 'Copied',
  createdTitle: 'Site chat created',
  done: 'Done',
  guide: {
    step1: 'Name the widget and choose the team that answers its visitors',
    step2:
      'Set the title, the welcome message and how the widget shows itself (closed, open, or with a teaser)',
    step3: 'Save, then paste the code shown into your site: one script tag, nothing else to install',
    note: 'Visitors need no account: the widget remembers each one in their browser',
  },
  fields: {
    title: 'Title',
    subtitle: 'Subtitle',
    initialTitle: 'Initial title (teaser)',
    logo: 'Logo URL',
    welcomeMessage: 'Welcome message',
    display: 'Display',
    channelList: 'Channel list',
    channelListHint: 'Links to your other messengers, one per line: name and address',
  },
  support: {
    hint: 'Write to SmartConnect support: we see your name, e-mail and organisation, and answer here.',
    loading: 'Loading',
    unavailable: 'The support chat is not available now',
  },
  display: { closed: 'Closed', open: 'Open', initial: 'Initial (with teaser)' },
  page: {
    intro:
      'A chat page of its own at a link you share: in an e-mail signature, on social networks, on a flyer as a QR code.',
    step1: 'Name the page and choose the team that answers its visitors',
    step2:
      'Choose its address (or leave it empty for one to be made), the title, the logo and the welcome message',
    step3: 'Save, then share the link or print its QR code',
    note: 'Visitors need no account and nothing to install; the page works on phones from 320 px wide',
    slug: 'Page address',
    slugHint: '{{prefix}} followed by this: lower-case letters, digits and hyphens, 3 to 64 characters',
    link: 'Link to the chat page',
    qr: 'QR code of the chat page link',
    qrHint: 'Print it or put it on a slide: a phone camera opens the chat.',
    open: 'Open the page',
    createdTitle: 'Chat page created',
  },
};
