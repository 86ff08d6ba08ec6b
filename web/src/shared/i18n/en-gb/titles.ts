export const titles = {
  login: 'Sign in',
  restore: 'Password recovery',
  signup: 'Sign up',
  notFound: 'Page not found',
  serviceUnavailable: 'Service unavailable',
  success: 'Thank you',
  alreadyUsed: 'Link already used',
  noRights: 'No rights',
  unknownError: 'Unknown error',
  linkAction: 'Link',
  notification: 'New message!',
};
