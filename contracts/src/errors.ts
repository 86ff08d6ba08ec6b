/**
 * The §8 error catalogue: one stable code per error, one HTTP status each (DECISIONS.md "Errors"). The English
 * texts are in error-messages.ts, for the server only: the web app translates by code, and its first bundle does not
 * carry the texts.
 */
export const ERROR_STATUS = {
  // generic
  validationException: 400,
  unauthorizedException: 401,
  accessDeniedException: 403,
  optionUnavailableException: 403,
  notFoundException: 404,
  tooManyRequestsException: 429,
  unknownException: 500,
  fileUploadException: 400,
  pictureTooBigException: 413,
  payloadTooLargeException: 413,
  // identity
  invalidCredentialsException: 401,
  emailNotFoundException: 404,
  recoveryLinkExpiredException: 400,
  loginTicketExpiredException: 401,
  totpMandatoryException: 400,
  totpInvalidException: 401,
  totpBadFormatException: 400,
  totpAlreadyEnabledException: 409,
  totpNotEnabledException: 409,
  totpNotGeneratedException: 409,
  wrongCurrentPasswordException: 400,
  // not found
  accountNotFoundException: 404,
  organizationNotFoundException: 404,
  roleNotFoundException: 404,
  teamNotFoundException: 404,
  imageNotFoundException: 404,
  chatNotFoundException: 404,
  channelNotFoundException: 404,
  messageNotFoundException: 404,
  categoryNotFoundException: 404,
  profileNotFoundException: 404,
  autoReplyNotFoundException: 404,
  templateNotFoundException: 404,
  // §8 not found: the rest of the catalogue's list (issue 36)
  channelServiceNotFoundException: 404,
  colorNotFoundException: 404,
  messageStatusNotFoundException: 404,
  serviceAccountNotFoundException: 404,
  commentNotFoundException: 404,
  contactNotFoundException: 404,
  fieldNotFoundException: 404,
  tagNotFoundException: 404,
  // already exists
  emailAlreadyExistsException: 409,
  phoneAlreadyExistsException: 409,
  accountLoginAlreadyExistsException: 409,
  roleNameAlreadyExistsException: 409,
  teamNameAlreadyExistsException: 409,
  teamInUseException: 409,
  organizationLoginAlreadyExistsException: 409,
  channelAlreadyExistsException: 409,
  // roles
  immutableRoleUpdateException: 409,
  roleInUseException: 409,
  // licences and chats
  allLicencesTakenException: 409,
  cannotTransferException: 409,
  deactivatedChannelException: 409,
  // §4 WhatsApp session: after 24 hours without a client message only registered templates may be sent.
  sessionEndedException: 409,
  organizationDeactivatedException: 403,
  channelCreationException: 502,
  providerUnavailableException: 503,
  closeWithoutCategoryException: 409,
  chatClosedException: 409,
  chatAlreadyTakenException: 409,
  categoryNameAlreadyExistsException: 409,
  // request categories (§8 session category errors, 'category modify denied')
  subcategoryAlreadyExistsException: 409,
  sessionCategoryNotSelectedException: 400,
  sessionCategoryInvalidNameException: 400,
  sessionCategoryNameTooLongException: 400,
  sessionCategoryNotAvailableException: 409,
  categoryModifyDeniedException: 403,
  // §8 Generic 'team, template and category modify denied'
  teamModifyDeniedException: 403,
  // §8 Service accounts: an edited channel's new token belongs to another bot
  tokenNotFromCurrentBotException: 400,
  messageEditDeniedException: 403,
  /** The channel's provider cannot change a message the client already has (WhatsApp, Viber, e-mail): notes only. */
  messageEditUnsupportedException: 409,
  // templates (§8 'template modify denied')
  templateModifyDeniedException: 403,
  // knowledge base (issue 36): its categories answer categoryNotFoundException / categoryNameAlreadyExistsException
  articleNotFoundException: 404,
  // mailings (issue 33): a started mailing changes only by pause, resume and cancel
  mailingNotFoundException: 404,
  mailingStartedException: 409,
  mailingStateException: 409,
  // service rating (§8)
  qualityAssessmentNotFoundException: 404,
  ratingAlreadySentException: 409,
  ratingLimitExceededException: 409,
  // routing rules (§8 rules)
  ruleNotFoundException: 404,
  routingRuleAlreadyExistsException: 409,
  defaultRuleUpdateException: 409,
  invalidRuleValueException: 400,
  // client profiles (§8 profile contact/field/tag/status, outer company, 'active status cannot be deleted')
  statusNotFoundException: 404,
  companyNotFoundException: 404,
  contactAlreadyExistsException: 409,
  fieldAlreadyExistsException: 409,
  tagAlreadyExistsException: 409,
  statusAlreadyExistsException: 409,
  companyAlreadyExistsException: 409,
  profileStatusInUseException: 409,
  // chat bots (§8 not found 'chatBot', 'chatbot name already exists', Chatbot structure, 'chatbot used by rules')
  chatBotNotFoundException: 404,
  chatBotNameExistsException: 409,
  /** details: { issues: BotStructureIssue[] } — every structure error, each naming its node. */
  chatBotStructureException: 400,
  /** details: { rules: string[] } — the names of the routing rules that route to the bot. */
  chatBotUsedByRulesException: 409,
  /** Transfer to a chat bot that has no published version (§4). */
  chatBotNotPublishedException: 409,
  // sign-up (issue 19, §8 Registration): word for word; the e-mail code's own error words it like §8's login code
  invalidCaptchaException: 400,
  invalidPhoneException: 400,
  invalidPhoneCodeException: 400,
  invalidEmailCodeException: 400,
  registrationException: 400,
  wrongStageException: 409,
  tooManyRegistrationRequestsException: 429,
  // reports (§9: statistics need OPTION_STATISTIC)
  statisticsUnavailableException: 403,
  // licences and billing (§8, issue 19)
  postpaidAccountException: 409,
  billingAccountNotRegisteredException: 409,
  /** `details.price`: the tariff's price the balance must cover. */
  notEnoughBalanceException: 409,
  invalidAmountException: 400,
  objectsLimitException: 429,
  cannotExtendTariffException: 409,
  loginQuotaExceededException: 409,
  planNotFoundException: 404,
  planNameAlreadyExistsException: 409,
  paymentNotFoundException: 404,
  documentNotFoundException: 404,
  /** Not in the spec: the organisation's paid days ran out and the day's charge could not be taken (issue 19). */
  organizationSuspendedException: 403,
  /** §8 generic: this user has no web push subscription to send to (issue 34). */
  pushSubscriptionMissingException: 404,
  /** §8 generic: the push service refused or did not answer. */
  pushSendFailureException: 502,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

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
