/**
 * Field messages of §5, word for word. The server sends these strings as field errors; the web app
 * uses them as translation keys, so both locales show the spec's text.
 */
export const FIELD_MESSAGES = {
  invalidPasswordFormat: 'Invalid password format',
  passwordIncorrect: 'Password specified incorrectly',
  passwordsDoNotMatch: 'Passwords do not match',
  invalidEmailFormat: 'Invalid email format',
  emailIncorrect: 'Email specified incorrectly',
  nameIncorrect: 'Name specified incorrectly',
  nameTooLong: 'Name is too long',
  categoryNotSelected: 'Choose a request category',
  phoneIncorrect: 'Phone number specified incorrectly',
  /** §8 'Already exists: … email, phone': the field error beside the code's toast text. */
  emailExists: 'Email already exists',
  /** §8 Service accounts 'token not from current bot': the token field of an edited channel. */
  tokenNotFromCurrentBot: 'Token not from current bot',
  phoneExists: 'Phone already exists',
  organisationNameIncorrect: 'Organisation name specified incorrectly',
  timeIncorrect: 'Time specified incorrectly',
  timeSetIncorrectly: 'Time set incorrectly',
  descriptionIncorrect: 'Description specified incorrectly',
  quantityIncorrect: 'Quantity specified incorrectly',
  roleIncorrect: 'Role specified incorrectly',
  teamIncorrect: 'Team specified incorrectly',
  rightsIncorrect: 'Rights specified incorrectly',
  codeIncorrect: 'The code must be 6 digits',
  requiredFields: 'Please fill in all required fields',
  incorrectValue: 'Incorrect value entered',
  languageIncorrect: 'Language specified incorrectly',
  distributionIncorrect: 'Distribution method specified incorrectly',
  valueIncorrect: 'Value specified incorrectly',
  emailNotFound: 'Specified email not found',
  jpegOnly: 'JPEG only',
  addressNotAllowed: 'Local and private network addresses are not allowed',
  tokenIncorrect: 'Incorrect token/ID specified',
  botUsernameIncorrect: 'Telegram bot username must end in bot',
  categoryMustBeChosen: 'A category must be chosen',
  /** Issue 33: a mailing's channel must be able to write first (site chat cannot). */
  channelCannotStartDialogs: 'This channel cannot start a conversation',
  portNumeric: 'The port must be a number from 1 to 65535',
  /** §5 Report: a start and end date or a chosen period. */
  reportPeriodRequired: 'A report requires a start and end date or a chosen period',
  // sign-up (issue 19): §5 'consent required'; the captcha must be solved before sending
  consentRequired: 'Consent to personal data processing is required',
  captchaRequired: 'Confirm that you are not a robot',
  // billing (issue 19)
  loginIncorrect: 'Login specified incorrectly',
  tariffRequired: 'Tariff is required',
  priceIncorrect: 'Price specified incorrectly',
  /** §8 'invalid amount (min 500)': the top-up's field message and its own code (invalidAmountException). */
  minTopUp: 'invalid amount (min 500)',
} as const;
export type FieldMessage = (typeof FIELD_MESSAGES)[keyof typeof FIELD_MESSAGES];
