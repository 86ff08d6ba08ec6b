export const orgSettings = {
  menu: 'Organisation',
  title: 'Organisation settings',
  hint: 'Settings that apply to everyone in the organisation.',
  timeZone: 'Time zone',
  timeZoneHint: 'Reports count days and hours in this zone.',
  timeZoneSearch: 'Search by city or region',
  nothingFound: 'No such time zone',
  saved: 'Organisation settings saved',
};
