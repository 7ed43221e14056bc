/**
 * Channels that send reviews, and whether the hotel's reply goes back to them through this connection.
 * Booking.com, Expedia, Airbnb and Agoda take one public reply per review through their connectivity APIs;
 * HRS and Google (through the search-advertising channel) publish reviews without accepting replies here.
 * `scale` is the channel's rating scale, used when the payload names none.
 */
export const REVIEW_CHANNELS = {
  BDC: { name: 'Booking.com', takesReplies: true, scale: 10 },
  EXP: { name: 'Expedia', takesReplies: true, scale: 5 },
  ABB: { name: 'Airbnb', takesReplies: true, scale: 5 },
  AGO: { name: 'Agoda', takesReplies: true, scale: 10 },
  HRS: { name: 'HRS', takesReplies: false, scale: 10 },
  GHA: { name: 'Google', takesReplies: false, scale: 5 },
} as const;

export type ReviewChannel = keyof typeof REVIEW_CHANNELS;

export function isReviewChannel(code: string): code is ReviewChannel {
  return Object.hasOwn(REVIEW_CHANNELS, code);
}
