import { createRequire } from 'node:module';
import type * as IsoCountries from 'i18n-iso-countries';

// The library's core and its English names only: its entry point registers all of its ~80 languages (as
// many modules loaded at start, by every process and test file), of which only English is served.
const require = createRequire(import.meta.url);
const countries = require('i18n-iso-countries/index.js') as typeof IsoCountries;
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as IsoCountries.LocaleData);

/** The spec's Country, from the maintained ISO 3166 data of i18n-iso-countries (English names). */
export interface Country {
  name: string;
  alpha2: string;
  alpha3: string;
  apolitical_name: string;
  numeric: string;
}

/**
 * Every ISO 3166-1 country, sorted by name. `name` is the package's official English name (e.g. "Taiwan,
 * Province of China", "United States of America"); `apolitical_name` its common short alias where it has one
 * ("Taiwan", "United States"), else the name.
 */
export const COUNTRIES: readonly Country[] = Object.freeze(
  Object.keys(countries.getAlpha2Codes())
    .map((alpha2) => {
      const all = countries.getName(alpha2, 'en', { select: 'all' }) as unknown as string[] | undefined;
      const name = all?.[0] ?? alpha2;
      return {
        name,
        alpha2,
        alpha3: countries.alpha2ToAlpha3(alpha2) ?? '',
        apolitical_name: all?.[1] ?? name,
        numeric: countries.alpha2ToNumeric(alpha2) ?? '',
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en')),
);

/** The alpha-2 codes, for validation. */
export const ALPHA2_CODES: readonly string[] = COUNTRIES.map((c) => c.alpha2);
