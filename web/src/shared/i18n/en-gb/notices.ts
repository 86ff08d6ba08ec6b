export const notices = {
  connectionLost: 'No connection to the server.',
  newVersion: 'New version available, refresh page',
  problem: 'Problem detected!',
  newMessage: 'New message!',
};
