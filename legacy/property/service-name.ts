import { localized } from './room-details.ts';

/**
 * An extra service's name in legacy answers (getPropertySettings `services`, getBookingOffers `services[]`): at the
 * request locale, and a service named only in translations still has a name, its first non-empty one in locale-tag
 * order, so the two methods never disagree.
 */
export function serviceName(service: { name: string; name_tr: Record<string, string> }, locale: string | undefined) {
  return localized(service.name, service.name_tr, locale) || firstTranslation(service.name_tr);
}

function firstTranslation(nameTr: Record<string, string>): string {
  const tags = Object.keys(nameTr).sort();
  return tags.map((tag) => nameTr[tag] ?? '').find((v) => v.trim() !== '') ?? '';
}
