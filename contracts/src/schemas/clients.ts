/** A minimal client profile; the CRM issue extends it. */
export type ClientDto = {
  id: string;
  name: string;
  personalManagerId: string | null;
  contacts: { channelId: string; externalId: string; name: string }[];
};
