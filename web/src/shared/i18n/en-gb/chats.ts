export const chats = {
  emptyAssigned: 'No conversations in progress',
  emptyWaiting: 'Nobody is waiting',
  emptyClosed: 'No closed conversations yet',
  emptyHint: 'New conversations from every connected channel will appear here.',
  selectHint: 'Select a conversation to start answering',
  backToList: 'All chats',
};
