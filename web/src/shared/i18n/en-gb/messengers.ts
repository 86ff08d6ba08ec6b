export const messengers = {
  // An Avito account through the Messenger API (type `avito`, issue 35).
  avito: {
    intro:
      'Answer the customers who write to you on Avito about your listings: each Avito chat comes here with the listing it is about.',
    step1:
      'Make sure the account has an Avito subscription that includes the Messenger API (goods and jobs: Maximum; services: Extended or Maximum)',
    step2:
      'Sign in to the company’s main account (not an employee’s) and open https://www.avito.ru/professionals/api',
    step3: 'Copy the Client ID and the Client secret shown there',
    step4: 'Paste them here and save: we check them with Avito and subscribe to the account’s new messages',
    note: 'Text messages up to 1000 characters and images are sent to Avito; other files go as links. Avito messages cannot be edited.',
    account: 'Avito account',
    clientId: 'Client ID',
    clientIdHint: 'From the API page of the Avito cabinet (client_id)',
    clientSecret: 'Client secret',
    keep: 'Leave empty to keep the current one',
  },
  // Apple Messages for Business through a messaging service provider (type `apple_business_chat`, issue 35).
  appleBusiness: {
    intro:
      'Answer the customers who write to your business from Messages on their iPhone, iPad or Mac: each conversation comes here.',
    step1:
      'Sign in to Apple Business Register (https://register.apple.com) with your company’s Apple Account and create a Messages for Business account; Apple reviews it before it goes live',
    step2:
      'Choose your messaging service provider (MSP) in the account and get from the provider its MSP ID and the API secret (Base64) Apple issued to it',
    step3:
      'Copy the Business ID shown on the account page in Apple Business Register (the identifier of your business in Messages)',
    step4:
      'Paste the Business ID, MSP ID and secret here and save: we check them with Apple’s messaging gateway',
    step5:
      'Give the webhook address shown after saving to your provider (or enter it in Apple Business Register as the provider’s webhook URL), then send a test message with the account’s test link',
    note: 'Customers’ names are not shared by Apple. Text, files (sent encrypted) and bot buttons (as a list picker) are sent; messages cannot be edited or deleted, and you can answer only customers who wrote first.',
    businessId: 'Business ID',
    businessIdHint: 'From the account page in Apple Business Register',
    mspId: 'MSP ID',
    mspIdHint: 'Your messaging service provider’s identifier',
    secret: 'API secret',
    secretHint: 'The provider’s API secret, Base64-encoded',
    keep: 'Leave empty to keep the current one',
    webhookUrl: 'Webhook address for your provider',
    webhookHint:
      'Apple sends the customers’ messages here, signed with your secret: give it to your provider or enter it in Apple Business Register.',
  },
  // An Ozon seller's buyer chats through the Seller API (type `ozon`, issue 35).
  ozon: {
    intro:
      'Answer the buyers who write to your Ozon store: each Ozon chat comes here with the order it is about.',
    step1:
      'Make sure the store has the Premium Plus or Premium Pro subscription: without it Ozon lets nobody answer buyers’ chats through the API',
    step2:
      'In the Ozon seller cabinet open Settings → Seller API and create an API key with access to the chats',
    step3: 'Copy your Client ID and the new API key shown there',
    step4: 'Paste them here and save: we check them with Ozon and read the chats every 20 seconds',
    step5:
      'Optionally, for messages to come at once: paste the push notifications address shown after saving into the cabinet under Settings → Notifications → Push notifications',
    note: 'Text messages up to 1000 characters, images and documents are sent to Ozon, within Ozon’s time limits for answering. Ozon messages cannot be edited.',
    clientId: 'Client ID',
    clientIdHint: 'Your seller number (digits), on the Seller API page of the cabinet',
    apiKey: 'API key',
    apiKeyHint: 'The key with access to the chats (Api-Key)',
    keep: 'Leave empty to keep the current one',
    pushUrl: 'Push notifications address',
    keyShownOnce:
      'The key (key=…) was shown once, when the channel was created. Lost it? Create the channel again. Without push notifications the chats are still read every 20 seconds.',
    createdTitle: 'Push notifications address of the channel',
    createdText:
      'Copy the address now: its key is shown only once. The chats are read every 20 seconds anyway; push notifications bring the messages at once.',
    pushStep1:
      'In the Ozon seller cabinet open Settings → Notifications → Push notifications and turn them on',
    pushStep2: 'Click Connect, paste this address and click Check, then Save',
    pushStep3: 'Under Connection settings choose the chat notifications (new messages)',
  },
  // A Yandex Market cabinet's buyer chats through the Partner API (type `ya_market`, issue 35).
  ya_market: {
    intro:
      'Answer the buyers who write to your Yandex Market store: each Market chat comes here with the order it is about.',
    step1:
      'Sign in to the Yandex Market seller cabinet as the cabinet owner or manager, click the account icon and open Settings → API and modules → Authorisation tokens',
    step2: 'Create a token with the “Customer communication” access (communication) and copy the new Api-Key',
    step3:
      'Find the cabinet’s business ID (a number, not a store’s campaign number): it is the number after business/ in the cabinet’s address (partner.market.yandex.ru/business/…)',
    step4: 'Paste them here and save: we check them with Yandex Market and read the chats every 30 seconds',
    step5:
      'Optionally, for messages to come at once: set up API notifications in the cabinet with the address shown after saving',
    note: 'Text messages up to 4096 characters and files up to 5 MB are sent to Yandex Market. Market messages cannot be edited, and Market has no read marks.',
    businessId: 'Business ID',
    businessIdHint: 'The cabinet’s number (digits), from its address after business/',
    apiKey: 'Api-Key token',
    apiKeyHint: 'The token with the Customer communication access',
    keep: 'Leave empty to keep the current one',
    pushUrl: 'API notifications address',
    keyShownOnce:
      'The key (key=…) was shown once, when the channel was created. Lost it? Create the channel again. Without notifications the chats are still read every 30 seconds.',
    createdTitle: 'API notifications address of the channel',
    createdText:
      'Copy the address now: its key is shown only once. The chats are read every 30 seconds anyway; API notifications bring the messages at once. Market sends them only to an https address with a certificate from a recognised authority.',
    pushStep1:
      'In the seller cabinet open Settings → API and modules → the API notifications tab and click Connect notifications',
    pushStep2:
      'Name the connection and choose the cabinet level: chat notifications come only for the whole cabinet',
    pushStep3:
      'Choose the chat events (new chat, new message), paste this address and click Connect: it works within about two minutes',
  },
  // An account at an outside SMS mailing service (type `sms`, issue 33): its SMS imported into the clients' histories.
  sms: {
    intro:
      'Bring the SMS you send through an outside SMS service into the clients’ histories, so operators see what a client was sent. Nothing is sent through this channel.',
    step1: 'Choose the service the account is at: SMS.ru, SMSC.ru or another one',
    step2:
      'Save the channel: its callback address with a key is shown once — paste it into the service’s settings for delivery reports (SMS.ru: Settings → Callback; SMSC.ru: Settings → Status handler)',
    step3:
      'Import the SMS sent earlier from the service’s export file (CSV or XLSX) under Mailings → Import SMS',
    note: 'Another service can post JSON to the callback address: {id, phone, text, sentAt, status}, or {messages: [...]}.',
    service: 'SMS service',
    serviceHint: 'Its export files and callbacks are read as the service writes them',
    services: { smsru: 'SMS.ru', smsc: 'SMSC.ru', other: 'Other service' },
    callbackUrl: 'Callback address',
    keyShownOnce:
      'The key (key=…) was shown once, when the channel was created. Lost it? Create the channel again.',
    openImport: 'Import SMS',
    createdTitle: 'Callback address of the channel',
    createdText:
      'Copy the address now: its key is shown only once. Paste it into the SMS service’s settings for delivery reports.',
    createdImport: 'SMS sent earlier are imported from the service’s export file.',
  },
  // The VK community through the Bots Long Poll API (type `vk`): no public address needed.
  vkLongPoll: {
    intro:
      'Connect a VK community without a public address: this server asks VK for new messages (Long Poll API), so it works behind a firewall.',
    step1:
      'In your community open Manage → API usage → Access tokens and create a token with access to community management, messages, photos and docs; copy it',
    step2: 'Copy the community’s ID (the number in club218123456)',
    step3:
      'Under Messages turn on the community’s messages (and, under Bot settings, bot abilities if you use buttons)',
    step4:
      'Save here: we check the token with VK and turn on the Long Poll API with the message events for you',
    note: 'Without the community management right, turn on Long Poll API yourself (API usage → Long Poll API, version 5.199, incoming, outgoing and read messages, message allowed and denied). With a public HTTPS address, the VKontakte bot channel (Callback API) works too.',
    tokenHint: 'A community token with community management, messages, photos and docs rights',
  },
  vk: {
    community: 'Community',
    callbackUrl: 'Callback API address',
    token: 'Community access token',
    tokenHint:
      'Community → Manage → API usage → Access tokens: a token with messages, photos and docs rights',
    groupId: 'Community ID',
    groupIdHint: 'The number in the community’s address (club218123456) or in Manage → Settings',
    confirmation: 'Confirmation string',
    confirmationHint: 'API usage → Callback API: the string the server must return',
    secret: 'Secret key',
    secretHint: 'Callback API → Server settings: any letters and digits; every event is checked with it',
    keep: 'Leave empty to keep the saved value',
    serverTitle: 'Add the server in VK',
    serverText: 'The channel is saved. Now tell VK where to send the events:',
    serverStep1:
      'In the community open Manage → API usage → Callback API, choose API version 5.199, paste the address above and press Confirm.',
    serverStep2:
      'Under Event types turn on incoming, outgoing and read messages, message allowed and message denied; under Messages turn on the community’s messages and bot abilities.',
    done: 'Done',
    guide: {
      step1:
        'Authorise: in your community open Manage → API usage → Access tokens, create a token with access to messages, photos and docs, and copy it',
      step2: 'Choose the community: copy its ID (the number in club218123456)',
      step3: 'On the Callback API tab copy the confirmation string and set a secret key (letters and digits)',
      step4:
        'Save here: we check the token and the community with VK, then show the address for the Callback API',
      note: 'VK must reach this server over HTTPS at its public address',
    },
    // Logging in with VK (the guide: authorise, choose a community, save).
    oauth: {
      login: 'Log in with VK',
      loginAgain: 'Log in again',
      manual: 'or enter the community token yourself',
      step1: 'Authorise: log in with VK and allow access to your communities',
      step2: 'Choose a community you manage and authorise its messages',
      step3: 'Save: we set up the Callback API in the community for you',
      loggedIn: 'Logged in with VK. Choose the community to connect:',
      communityHint: 'The communities you manage',
      authoriseCommunity: 'Authorise the community',
      authorised: 'Community “{{name}}” authorised. Save to connect it; we set up its Callback API.',
      accountsError: 'VK did not list your communities. Log in again.',
      noAccounts: 'You manage no VK communities.',
    },
  },
  // Back from a refused VK login (the channels page names the type).
  vk_bot: {
    accessDenied: 'VK access denied (retry login later)',
  },
  instagram: {
    login: 'Log in with Facebook',
    loginAgain: 'Log in again',
    loggedIn: 'You are logged in: choose the account to connect',
    account: 'Instagram account',
    accountHint: 'A Facebook page of yours with its linked Instagram business account',
    noAccounts: 'No Facebook page of this login has an Instagram business account',
    accountsError: 'The login has expired: log in again',
    accessDenied: 'Instagram access denied (retry login later)',
    step1: 'Switch the Instagram account to a business account and link it to a Facebook page',
    step2: 'Press “Log in with Facebook” on the next step and allow access to the page’s messages',
    step3: 'Back here, choose the account and save: we subscribe to its messages ourselves',
    note: 'Allow access to messages in the Instagram app (Settings → Privacy → Messages → Connected tools)',
  },
  facebook: {
    login: 'Log in with Facebook',
    loginAgain: 'Log in again',
    loggedIn: 'You are logged in: choose the page to connect',
    account: 'Facebook page',
    accountHint: 'Messages to this page arrive in the chat center',
    noAccounts: 'This login manages no Facebook page',
    accountsError: 'The login has expired: log in again',
    accessDenied: 'Facebook access denied (retry login later)',
    step1: 'Make sure you are an administrator of the Facebook page',
    step2: 'Press “Log in with Facebook” on the next step and allow access to the page’s messages',
    step3: 'Back here, choose the page and save: we subscribe to its messages ourselves',
  },
  viberBusiness: {
    intro:
      'Connect Viber business messages through the provider of your region: Devino Telecom for Russia, SMS.by for Belarus.',
    step1:
      'Russia: sign a Viber contract with Devino Telecom, ask your manager to enable the Viber HTTP API and to register your Viber sender name. Enter the login and password of your Devino cabinet',
    step2:
      'Belarus: in the SMS.by cabinet register a Viber sender name and copy the API key (Settings → API, app.sms.by/user-api/token). Enter your cabinet login, the API key as the password, and the number SMS.by shows for the sender name as the Viber service ID',
    step3:
      'Russia: after saving, give Devino support the reply address shown once, so clients’ replies arrive here. Delivery and read statuses are checked every minute',
    step4:
      'Belarus: SMS.by’s API documents no replies and no delivery statuses for single Viber messages: your messages go out and stay “Sent”',
    note: 'Viber has been restricted in Russia since December 2024: many recipients there no longer receive Viber messages. Turn on the SMS fallback so that a message Viber does not deliver goes out as SMS',
    restriction:
      'Viber is restricted in Russia since December 2024, so messages may not reach recipients there. With the SMS fallback, Devino sends the text as SMS when Viber does not deliver it. Operators may still filter SMS to subscribers who refused mailings.',
    service: 'Viber service',
    region: 'Region',
    regionHint: 'Russia: Devino Telecom. Belarus: SMS.by',
    regions: { ru: 'Russia', by: 'Belarus' },
    login: 'Provider login',
    loginHint: 'The login of your cabinet at the provider',
    password: 'Provider password',
    passwordHint: 'The password of your Devino cabinet',
    passwordHintBy: 'The SMS.by API key (app.sms.by/user-api/token)',
    keep: 'Leave empty to keep the saved password',
    serviceId: 'Viber service ID',
    serviceIdHint:
      'The Viber sender registered at the provider: Devino’s sender name (up to 11 characters) or the SMS.by sender ID (a number)',
    phone: 'Phone',
    phoneHint: 'The business phone number of the Viber account',
    smsFallback: 'Send as SMS when Viber is not delivered',
    smsFallbackHint:
      'Devino sends the text as SMS if Viber has not delivered it within an hour (pictures are not resent)',
    smsSender: 'SMS sender name',
    smsSenderHint: 'An SMS sender name approved in your Devino cabinet: up to 11 Latin letters or digits',
    belarusOutOnly:
      'SMS.by sends your messages to Viber as text. Its API documents no replies or delivery statuses for single messages, so they stay “Sent”.',
    createdTitle: 'Viber business connected',
    createdText:
      'Send this address to Devino support and ask them to deliver your subscribers’ Viber replies to it. It is shown only once.',
    replyUrl: 'Reply address for Devino',
  },
  viber: {
    photo: 'Photo',
    photoHint: 'Shown beside the bot’s messages: a JPEG of at most 200 KB',
    welcome: 'Welcome message',
    welcomeHint: 'Shown to a client who opens the bot’s chat, before they write',
    bot: 'Bot',
    token: 'Authentication token',
    tokenHint: 'Shown in the Viber admin panel (partners.viber.com) under your bot’s info',
    tokenKeep: 'Leave empty to keep the saved token',
  },
  session: {
    instagramClosesAt: 'Instagram messaging window closes {{time}}',
    instagramEnded: '24-hour session ended: you can write again once the client writes',
    facebookClosesAt: 'Messenger messaging window closes {{time}}',
    facebookEnded: '24-hour session ended: you can write again once the client writes',
    closesAt: 'WhatsApp session closes {{time}}',
    ended: '24-hour session ended: only WhatsApp templates can be sent until the client writes again',
  },
  templates: {
    button: 'WhatsApp templates',
    empty: 'No approved WhatsApp templates: register them in WhatsApp Manager',
    pick: 'Template',
    variable: 'Variable {{n}}',
  },
  whatsapp: {
    phone: 'Phone number',
    callbackUrl: 'Callback URL',
    phoneNumberId: 'Phone number ID',
    phoneNumberIdHint: 'WhatsApp → API Setup in your Meta app: the ID of the business phone number',
    wabaId: 'WhatsApp Business Account ID',
    wabaIdHint: 'Shown next to the phone number ID in API Setup',
    accessToken: 'Access token',
    accessTokenHint:
      'A permanent token of a system user with whatsapp_business_messaging and whatsapp_business_management',
    appSecret: 'App secret',
    appSecretHint: 'App settings → Basic → App secret: every webhook is checked with it',
    verifyToken: 'Verify token',
    verifyTokenHint: 'Any text of at least 8 characters: enter the same in the Meta app’s webhook settings',
    keep: 'Leave empty to keep the saved value',
    webhookTitle: 'Connect the webhook in Meta',
    webhookText: 'The channel is saved. Now tell Meta where to send the messages:',
    webhookStep1:
      'In your Meta app open WhatsApp → Configuration → Webhook, paste the callback URL above and your verify token, and verify.',
    webhookStep2: 'Under Webhook fields subscribe to “messages”.',
    done: 'Done',
  },
  guide: {
    viber_bot: {
      step1: 'Create a bot account at partners.viber.com (Create Bot Account) with a JPEG picture',
      step2: 'Open the bot’s info and copy its authentication token',
      step3: 'Paste the token here: we check it with Viber and connect the webhook ourselves',
      note: 'Viber must reach this server over HTTPS at its public address',
    },
    whatsapp: {
      step1: 'Create a Meta app of the Business type and add the WhatsApp product to it',
      step2: 'In WhatsApp → API Setup copy the phone number ID and the WhatsApp Business Account ID',
      step3: 'Create a system user in Business Settings and generate a permanent access token for the app',
      step4: 'Copy the app secret (App settings → Basic) and choose a verify token for the webhook',
      note: 'After saving, paste the callback URL we show into the app’s webhook settings and subscribe to “messages”',
    },
  },
  whatsappBsp: {
    provider: 'Provider',
    cloud: 'Cloud API (Meta)',
    bsp: 'Business solution provider',
    phone: 'Phone number',
    phoneHint: 'The business WhatsApp number registered with the provider, with the country code',
    login: 'Provider login',
    loginHint: 'The user ID of your account at the provider',
    password: 'Password',
    passwordHint: 'The password of that account: we check it with the provider',
    callbackKeyHint: 'The key after ?key= was shown once when the channel was created',
    webhookTitle: 'Connect the callback at the provider',
    webhookText: 'The channel is saved. Now tell the provider where to send messages and delivery reports:',
    webhookStep1:
      'In the provider’s portal paste the callback URL above (with its key) for incoming messages and delivery reports.',
    webhookStep2: 'Copy it now: the key is shown only once. Templates are available with the Cloud API only.',
  },
};
