/** Limits of §5 and §9, written once. */
export const LIMITS = {
  passwordMin: 8,
  passwordMax: 128,
  userNameMax: 255,
  emailMax: 254,
  breakTimeoutMin: 1,
  breakTimeoutMax: 999,
  avatarMaxBytes: 200 * 1024,
  roleNameMax: 32,
  roleDescriptionMax: 255,
  teamNameMax: 64,
  teamDescriptionMax: 128,
  dialogLimitMin: 1,
  dialogLimitMax: 999,
  autoRedistributionMin: 1,
  autoRedistributionMax: 999,
  autoCloseMin: 1,
  autoCloseMax: 4320,
  /** Team inactivity: 0 (off) or more than 23 hours. */
  inactivityMinWhenOn: 24,
  inactivityMax: 8760,
  organisationLoginMax: 255,
  organisationNameMax: 255,
  profileNameMax: 32,
  totpDigits: 6,
  trialDays: 7,
  tariffExtensionDays: 14,
  minTopUp: 500,
  titleBlinkMs: 1000,
} as const;

/** Auto-close choices offered by the team form, in minutes (None, 24, 48, 72 hours). */
export const AUTO_CLOSE_CHOICES = [null, 24 * 60, 48 * 60, 72 * 60] as const;

/** Password rule of §5: at least 8 characters with an uppercase letter, a digit and a special character. */
export const PASSWORD_PATTERN = /^(?=.*[A-ZА-ЯЁ])(?=.*\d)(?=.*[^\p{L}\p{N}\s]).{8,128}$/u;
/** Phone "like 79009009090": digits only, country code first, 10 to 15 digits (users keep it in E.164: phone.ts). */
export const PHONE_PATTERN = /^[1-9]\d{9,14}$/;
export const TOTP_PATTERN = /^\d{6}$/;
