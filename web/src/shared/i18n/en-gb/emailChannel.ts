export const emailChannel = {
  address: 'Mailbox address',
  addressHint: 'Customers write to this address; replies are sent from it.',
  receive: 'Receiving mail (IMAP)',
  send: 'Sending mail (SMTP)',
  host: 'Server host',
  port: 'Port',
  secure: 'SSL/TLS from the start',
  secureHint: 'On for ports 993 and 465; off: STARTTLS when the server offers it.',
  login: 'Login',
  password: 'Password',
  passwordKeep: 'Leave empty to keep the current password.',
  protocol: 'Protocol',
  summary: '{{address}}',
  intro:
    'Connect a mailbox: customers’ mail becomes dialogs, operators’ answers go out as replies in the same thread.',
  step1:
    'Take the mailbox’s IMAP server (to receive) and SMTP server (to send): host, port and whether SSL/TLS is used. Your mail provider lists them in its help for mail programs.',
  step2:
    'Use the mailbox’s login and password; many providers want an app password when two-factor sign-in is on.',
  step3:
    'On the next step we log in to both servers: a failure says which server refused and why. Mail arriving from then on is read.',
  note: 'Quoted history is folded in the conversation; automatic replies (out of office) open no dialog; bounces mark our message Undelivered.',
  failed: 'The mailbox could not be connected. {{details}}',
  part: { receive: 'Receiving (IMAP): {{why}}', send: 'Sending (SMTP): {{why}}' },
  reasons: {
    address: 'this address is on a local or private network, which this installation does not allow.',
    unreachable: 'the server could not be reached at this host and port.',
    timeout: 'the server did not answer in time.',
    tls: 'the secure connection failed: check SSL/TLS and the port.',
    auth: 'the login or password was not accepted.',
    mailbox: 'the inbox could not be opened.',
    refused: 'the server refused the connection.',
  },
  showQuoted: 'Show quoted text',
  hideQuoted: 'Hide quoted text',
};
