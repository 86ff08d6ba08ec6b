export const login = {
  title: 'Welcome back',
  subtitle: 'Sign in to your SmartConnect workspace',
  email: 'Email',
  password: 'Password',
  submit: 'Log In',
  trouble: 'Having trouble logging in?',
  twoFactorTitle: 'Two-factor authentication',
  twoFactorHint: 'Enter the 6-digit code from your authenticator app',
  code: 'Authenticator code',
  confirm: 'Confirm',
  wrongCode: 'The code entered is incorrect. <again>Enter again?</again>',
  captchaNeeded:
    'This account has had many failed sign-ins. Confirm that you are not a robot and log in again.',
  otherAccount: 'Sign in with another account',
  noAccount:
    'New to SmartConnect? <trial>Try it free for 7 days</trial> · <landing>About SmartConnect</landing>',
};
