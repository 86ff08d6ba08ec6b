export const rating = {
  title: 'Rate our service',
  text: 'How satisfied are you with the help you received?',
  loading: 'Loading',
  failed: 'The rating was not sent. Try again.',
  values: { VERY_BAD: 'Very bad', BAD: 'Bad', NORMAL: 'Normal', GOOD: 'Good', EXCELLENT: 'Excellent' },
  ask: 'Ask for a rating',
  asked: 'The client has been asked for a rating',
  requested: 'Rating requested',
  badge: 'Rating: {{value}} ({{score}} of 5)',
};
