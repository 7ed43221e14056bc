/**
 * The currencies a property may price in (spec 2.1: an ISO 4217 code): the alphabetic codes of ISO 4217 List One
 * that name a currency in circulation, as published in 2025. Not the fund codes (BOV, CHE, CHW, CLF, COU, MXV,
 * USN, UYI, UYW), precious metals (XAG, XAU, XPD, XPT), the bond-market units, XDR, XSU, XUA, the testing code
 * XTS and "no currency" XXX: no hotel sells a night in them. Withdrawn codes (HRK, ZWL) are not taken for a new
 * property; properties stored with one keep it. ANG stays beside XCG while the Caribbean guilder replaces it.
 * Intl.supportedValuesOf('currency') is no substitute: it follows the runtime's ICU and lists historic codes
 * (DEM, FRF) beside the current ones.
 */
const ISO_4217 = new Set(
  [
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD',
    'CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF',
    'GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP',
    'LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB',
    'PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL',
    'THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR',
    'ZMW ZWG',
  ]
    .join(' ')
    .split(' '),
);

/** Whether `code` is a circulating ISO 4217 currency, in its upper-case form (`EUR`, not `eur`). */
export function isCurrency(code: string): boolean {
  return ISO_4217.has(code);
}
