import Negotiator from 'negotiator';

export const AMENITY_LOCALES = ['en-GB', 'de-DE', 'fr-FR', 'es-ES'] as const;
export type AmenityLocale = (typeof AMENITY_LOCALES)[number];

/**
 * The catalogue locale for an Accept-Language header: the caller's languages in preference order (parsed by
 * negotiator), each matched exactly, else by its language alone (`de-AT` reads `de-DE`); English when none
 * matches or the header is absent.
 */
export function amenityLocale(acceptLanguage: string | null): AmenityLocale {
  const accepted = new Negotiator({ headers: { 'accept-language': acceptLanguage ?? '' } }).languages();
  for (const tag of accepted) {
    const lower = tag.toLowerCase();
    const exact = AMENITY_LOCALES.find((l) => l.toLowerCase() === lower);
    if (exact) return exact;
    const language = AMENITY_LOCALES.find((l) => l.slice(0, 2) === lower.slice(0, 2));
    if (language) return language;
  }
  return 'en-GB';
}
