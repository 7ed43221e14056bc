/**
 * Source channels (spec 2.7): the platform's own (booking engine, hotel dashboard, agency, the
 * search-advertising channel) and the OTAs it is connected to.
 */
export const PLATFORM_CHANNELS = ['QDO', 'QDB', 'QDA', 'GHA'] as const;
export const OTA_CHANNELS = ['BDC', 'EXP', 'ABB', 'AGO', 'HRS'] as const;
export const CHANNELS: readonly string[] = [...PLATFORM_CHANNELS, ...OTA_CHANNELS];

/**
 * Channels that deliver bookings to us through the inbound webhook: the OTAs and the search-advertising
 * channel. The booking engine, dashboard and agency desk are the platform itself (operator intake).
 */
export const INBOUND_CHANNELS: readonly string[] = ['GHA', ...OTA_CHANNELS];

export function isChannel(code: string): boolean {
  return CHANNELS.includes(code);
}
