export const a11y = {
  navigation: 'Menu',
  skipToContent: 'Skip to content',
};
