/** Query keys of event webhooks: a prefix for invalidation, the endpoint list, one endpoint's delivery log pages. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
  deliveryPage: (endpointId: string, offset: number) =>
    ['webhooks', 'deliveries', endpointId, offset] as const,
};
