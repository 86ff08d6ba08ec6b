export const carousel = {
  s1title: 'Every channel in one window',
  s1text: 'WhatsApp, Telegram, Viber, VK, e-mail, site chat and calls arrive in one stream of conversations.',
  s2title: 'Routing that thinks for you',
  s2text: 'Inquiries go to the right team queue and the right operator automatically.',
  s3title: 'Your accounts stay yours',
  s3text:
    'Employees never receive passwords of official messenger accounts; every dialog stays in the platform.',
  s4title: 'Answer faster',
  s4text: 'Quick-reply templates, files and images, chat bots and internal notes in every conversation.',
  s5title: 'See the whole picture',
  s5text: 'Reports, online monitoring and unlimited storage of conversations and statistics.',
  slide: 'Slide {{n}} of {{total}}',
};
