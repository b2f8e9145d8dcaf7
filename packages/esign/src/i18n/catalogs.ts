import type { Language } from '../domain/language/languages.ts';
import { de } from './catalogs/de.ts';
import { en, type Catalog } from './catalogs/en.ts';
import { es } from './catalogs/es.ts';
import { fr } from './catalogs/fr.ts';
import { it } from './catalogs/it.ts';
import { ja } from './catalogs/ja.ts';
import { nl } from './catalogs/nl.ts';
import { pt_BR } from './catalogs/pt_BR.ts';

/** One catalog per supported language (domain/language/languages.ts), one file each under catalogs/. */
export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, de, fr, es, pt_BR, it, nl, ja };
