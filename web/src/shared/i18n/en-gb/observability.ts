export const observability = {
  title: 'Web vitals',
  hint: "75th percentile per page of what users' browsers measured, coloured by rating (spec thresholds).",
  period: 'Period',
  day: 'Last 24 hours',
  week: 'Last 7 days',
  page: 'Page',
  empty: 'No data for period',
  thresholds: 'Good up to {{good}}, poor above {{poor}}',
  samples_one: '{{count}} sample',
  samples_other: '{{count}} samples',
  rating: { good: 'good', 'needs-improvement': 'needs improvement', poor: 'poor' },
};
