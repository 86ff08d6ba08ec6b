/**
 * The §8 error catalogue: one stable code per error, one HTTP status each (DECISIONS.md "Errors").
 * `message` is the English text, worded as the spec words it; the web app translates by code, never by this text.
 */
const catalogue = {
  // generic
  validationException: [400, 'Please fill in all required fields'],
  unauthorizedException: [401, 'Authentication required'],
  accessDeniedException: [403, 'Access denied'],
  optionUnavailableException: [403, 'Functionality unavailable'],
  notFoundException: [404, 'Not found'],
  tooManyRequestsException: [429, 'Too many requests'],
  unknownException: [500, 'Unknown error'],
  fileUploadException: [400, 'File create or upload failure'],
  pictureTooBigException: [413, 'picture too big (at most 204800 bytes)'],
  payloadTooLargeException: [413, 'Request too large'],
  // identity
  invalidCredentialsException: [401, 'Invalid credentials'],
  emailNotFoundException: [404, 'Specified email not found'],
  recoveryLinkExpiredException: [
    400,
    'The recovery link is outdated and does not work. Try again recovery attempt.',
  ],
  loginTicketExpiredException: [401, 'The login attempt has expired, log in again'],
  totpMandatoryException: [400, 'Two-factor code is required'],
  totpInvalidException: [401, 'The code entered is incorrect'],
  totpBadFormatException: [400, 'The code must be 6 digits'],
  totpAlreadyEnabledException: [409, 'Two-factor authentication is already enabled'],
  totpNotEnabledException: [409, 'Two-factor authentication is not enabled'],
  totpNotGeneratedException: [409, 'Generate a two-factor secret first'],
  wrongCurrentPasswordException: [400, 'Current password is incorrect'],
  // not found
  accountNotFoundException: [404, 'Account not found'],
  organizationNotFoundException: [404, 'Organization not found'],
  roleNotFoundException: [404, 'Role not found'],
  teamNotFoundException: [404, 'Team not found'],
  imageNotFoundException: [404, 'Image not found'],
  chatNotFoundException: [404, 'Chat not found'],
  channelNotFoundException: [404, 'Channel not found'],
  messageNotFoundException: [404, 'Message not found'],
  categoryNotFoundException: [404, 'Category not found'],
  profileNotFoundException: [404, 'Profile not found'],
  autoReplyNotFoundException: [404, 'Auto-reply not found'],
  templateNotFoundException: [404, 'Template not found'],
  // §8 not found: the rest of the catalogue's list (issue 36)
  channelServiceNotFoundException: [404, 'Channel service not found'],
  colorNotFoundException: [404, 'Color not found'],
  messageStatusNotFoundException: [404, 'Message status not found'],
  serviceAccountNotFoundException: [404, 'Service account not found'],
  commentNotFoundException: [404, 'Comment not found'],
  contactNotFoundException: [404, 'Contact not found'],
  fieldNotFoundException: [404, 'Field not found'],
  tagNotFoundException: [404, 'Tag not found'],
  // already exists
  emailAlreadyExistsException: [409, 'Email already exists'],
  phoneAlreadyExistsException: [409, 'Phone already exists'],
  accountLoginAlreadyExistsException: [409, 'Account login already exists'],
  roleNameAlreadyExistsException: [409, 'Role name already exists'],
  teamNameAlreadyExistsException: [409, 'Team name already exists'],
  teamInUseException: [409, 'Channels or open chats still use this team'],
  organizationLoginAlreadyExistsException: [409, 'Organisation login already exists'],
  channelAlreadyExistsException: [409, 'Channel already exists'],
  // roles
  immutableRoleUpdateException: [409, 'immutable role cannot be updated'],
  roleInUseException: [409, 'The role is assigned to users'],
  // licences and chats
  allLicencesTakenException: [409, 'all operator licences taken'],
  cannotTransferException: [409, 'cannot transfer'],
  deactivatedChannelException: [409, 'cannot send to deactivated channel'],
  // §4 WhatsApp session: after 24 hours without a client message only registered templates may be sent.
  sessionEndedException: [409, '24-hour session ended'],
  organizationDeactivatedException: [403, 'The organisation is deactivated'],
  channelCreationException: [502, 'Channel creation error'],
  providerUnavailableException: [503, 'The provider could not be reached, try again later'],
  closeWithoutCategoryException: [409, 'close without category'],
  chatClosedException: [409, 'The chat is closed'],
  chatAlreadyTakenException: [409, 'The chat has already been taken'],
  categoryNameAlreadyExistsException: [409, 'Category name already exists'],
  // request categories (§8 session category errors, 'category modify denied')
  subcategoryAlreadyExistsException: [409, 'Subcategory already exists'],
  sessionCategoryNotSelectedException: [400, 'Category not selected'],
  sessionCategoryInvalidNameException: [400, 'Invalid category name'],
  sessionCategoryNameTooLongException: [400, 'Category name too long'],
  sessionCategoryNotAvailableException: [409, "The category is not available to the chat's team"],
  categoryModifyDeniedException: [403, 'Category modify denied'],
  // §8 Generic 'team, template and category modify denied'
  teamModifyDeniedException: [403, 'team modify denied'],
  // §8 Service accounts: an edited channel's new token belongs to another bot
  tokenNotFromCurrentBotException: [400, 'Token not from current bot'],
  messageEditDeniedException: [403, 'Only the author can edit this message'],
  /** The channel's provider cannot change a message the client already has (WhatsApp, Viber, e-mail): notes only. */
  messageEditUnsupportedException: [409, 'This channel cannot change a message already sent'],
  // templates (§8 'template modify denied')
  templateModifyDeniedException: [403, 'template modify denied'],
  // knowledge base (issue 36): its categories answer categoryNotFoundException / categoryNameAlreadyExistsException
  articleNotFoundException: [404, 'Article not found'],
  // mailings (issue 33): a started mailing changes only by pause, resume and cancel
  mailingNotFoundException: [404, 'Mailing not found'],
  mailingStartedException: [409, 'The mailing has started'],
  mailingStateException: [409, 'Not possible in this state'],
  // service rating (§8)
  qualityAssessmentNotFoundException: [404, 'Quality assessment not found'],
  ratingAlreadySentException: [409, 'Rating already sent'],
  ratingLimitExceededException: [409, 'Message limit exceeded for bot rating'],
  // routing rules (§8 rules)
  ruleNotFoundException: [404, 'Rule not found'],
  routingRuleAlreadyExistsException: [409, 'routing rule with same conditions already exists'],
  defaultRuleUpdateException: [409, 'default rule cannot be updated'],
  invalidRuleValueException: [400, 'invalid action or condition value'],
  // client profiles (§8 profile contact/field/tag/status, outer company, 'active status cannot be deleted')
  statusNotFoundException: [404, 'Status not found'],
  companyNotFoundException: [404, 'Outer company not found'],
  contactAlreadyExistsException: [409, 'Profile contact already exists'],
  fieldAlreadyExistsException: [409, 'Profile field already exists'],
  tagAlreadyExistsException: [409, 'Profile tag already exists'],
  statusAlreadyExistsException: [409, 'Status already exists'],
  companyAlreadyExistsException: [409, 'Outer company already exists'],
  profileStatusInUseException: [
    409,
    'An active status cannot be deleted until it is removed from all clients',
  ],
  // chat bots (§8 not found 'chatBot', 'chatbot name already exists', Chatbot structure, 'chatbot used by rules')
  chatBotNotFoundException: [404, 'Chat bot not found'],
  chatBotNameExistsException: [409, 'Chatbot name already exists'],
  /** details: { issues: BotStructureIssue[] } — every structure error, each naming its node. */
  chatBotStructureException: [400, 'Chatbot structure error'],
  /** details: { rules: string[] } — the names of the routing rules that route to the bot. */
  chatBotUsedByRulesException: [409, 'Chatbot used by rules'],
  /** Transfer to a chat bot that has no published version (§4). */
  chatBotNotPublishedException: [409, 'Chat bot is not published'],
  // sign-up (issue 19, §8 Registration): word for word; the e-mail code's own error words it like §8's login code
  invalidCaptchaException: [400, 'invalid captcha'],
  invalidPhoneException: [400, 'invalid phone'],
  invalidPhoneCodeException: [400, 'invalid phone code'],
  invalidEmailCodeException: [400, 'The code entered is incorrect'],
  registrationException: [400, 'registration error'],
  wrongStageException: [409, 'wrong stage'],
  tooManyRegistrationRequestsException: [429, 'too many registration requests'],
  // reports (§9: statistics need OPTION_STATISTIC)
  statisticsUnavailableException: [403, 'Statistics only in the extended tariff'],
  // licences and billing (§8, issue 19)
  postpaidAccountException: [409, 'postpaid account not switched to prepaid'],
  billingAccountNotRegisteredException: [409, 'billing account not registered'],
  /** `details.price`: the tariff's price the balance must cover. */
  notEnoughBalanceException: [409, 'not enough balance to change tariff'],
  invalidAmountException: [400, 'invalid amount (min 500)'],
  objectsLimitException: [429, 'limit on simultaneously created objects'],
  cannotExtendTariffException: [409, 'cannot extend tariff'],
  loginQuotaExceededException: [409, 'quota exceeded for login'],
  planNotFoundException: [404, 'Tariff not found'],
  planNameAlreadyExistsException: [409, 'Tariff name already exists'],
  paymentNotFoundException: [404, 'Payment not found'],
  documentNotFoundException: [404, 'Document not found'],
  /** Not in the spec: the organisation's paid days ran out and the day's charge could not be taken (issue 19). */
  organizationSuspendedException: [403, 'organisation suspended for non-payment'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof catalogue;

export const ERRORS: Record<ErrorCode, { status: number; message: string }> = Object.fromEntries(
  Object.entries(catalogue).map(([code, [status, message]]) => [code, { status, message }]),
) as Record<ErrorCode, { status: number; message: string }>;

export const ERROR_CODES = Object.keys(catalogue) as ErrorCode[];

/** Plan options whose refusal has its own §9 wording; every other option is optionUnavailableException. */
export const OPTION_REFUSALS: Partial<Record<string, ErrorCode>> = {
  OPTION_STATISTIC: 'statisticsUnavailableException',
};

export type ErrorBody = {
  code: ErrorCode;
  entity: null;
  error: {
    code: ErrorCode;
    message: string;
    fields?: Record<string, string>;
    details?: Record<string, unknown>;
  };
};

export type OkBody<T> = { code: 'ok'; entity: T; error: null };
