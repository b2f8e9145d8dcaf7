import { checkBrandColors } from '../../domain/brands/brand-colors.ts';
import type { BrandDraft } from '../../domain/brands/brand-draft.ts';
import { EsignError } from '../../errors.ts';
import { isSupportedLanguage, SUPPORTED_LANGUAGES } from '../../domain/language/languages.ts';
import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import { WireReader } from '../../wire/wire-reader.ts';

const honoured: ModelFieldRule = { rule: 'honoured' };
const output: ModelFieldRule = { rule: 'output' };
const refused = (why: string): ModelFieldRule => ({ rule: 'refused', why });

/**
 * Every field of DocuSign's Brand model (node_modules/docusign-esign/src/model/Brand.js) and how
 * it is treated here: the look and the defaults are honoured; logos are uploaded with
 * updateBrandLogoByType (a client sending back the URIs it read is not refused); the rest asks
 * for what this service does not do and is refused by name.
 */
export const BRAND_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  brandName: honoured, brandCompany: honoured, defaultBrandLanguage: honoured, brandLanguages: honoured, colors: honoured,
  isSigningDefault: honoured, isSendingDefault: honoured,
  // The company name is always the brand's own here when it has one.
  isOverridingCompanyName: honoured,
  brandId: output, logos: output, logoIds: output, errorDetails: output, isOrganizationBrand: output, organizationBrandLogo: output,
  emailContent: refused('custom e-mail texts of a brand are not supported'),
  landingPages: refused('landing pages of a brand are not supported'),
  links: refused('custom links of a brand are not supported'),
  resources: refused('brand resource files are not supported'),
};

/**
 * A language code as DocuSign writes them (`en`, `pt_BR`), one this service speaks
 * (domain/language/languages.ts): a brand's recipients are never silently written to in English
 * when the brand asks for a language that is not there.
 */
function language(reader: WireReader): string | undefined {
  const code = reader.optionalString(10);
  if (code !== undefined && !isSupportedLanguage(code)) reader.fail(`"${code}" is not a supported language; use one of ${SUPPORTED_LANGUAGES.join(', ')}.`);
  return code;
}

/** A Brand body (createBrand, updateBrand) into a draft; absent fields stay absent. */
export function parseBrand(body: unknown): BrandDraft {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON Brand object.');
  const root = new WireReader('', body);
  checkModelFields(root, 'Brand', BRAND_FIELDS);
  const draft: { -readonly [K in keyof BrandDraft]: BrandDraft[K] } = {};
  const name = root.field('brandName').optionalString(100);
  if (name !== undefined) draft.name = name;
  const company = root.field('brandCompany').optionalString(100);
  if (company !== undefined) draft.company = company;
  const defaultLanguage = language(root.field('defaultBrandLanguage'));
  if (defaultLanguage !== undefined) draft.defaultLanguage = defaultLanguage;
  if (root.field('brandLanguages').present) {
    const readers = root.field('brandLanguages').items();
    if (readers.length > 50) root.field('brandLanguages').fail('may hold at most 50 languages.');
    draft.languages = readers.flatMap((r) => language(r) ?? []);
  }
  if (root.field('colors').present) {
    const readers = root.field('colors').items();
    if (readers.length > 20) root.field('colors').fail('may hold at most 20 colours.');
    draft.colors = checkBrandColors(readers.map((c) => ({ name: c.field('name').string(100), value: c.field('value').string(20) })));
  }
  if (root.field('isSigningDefault').present) draft.isSigningDefault = root.field('isSigningDefault').boolean(false);
  if (root.field('isSendingDefault').present) draft.isSendingDefault = root.field('isSendingDefault').boolean(false);
  return draft;
}

/** deleteBrands' BrandsRequest: `brands: [{brandId}]`. */
export function parseBrandIds(body: unknown): string[] {
  const root = new WireReader('', body);
  const ids = root.field('brands').items().map((b) => b.field('brandId').string(100));
  if (ids.length === 0) root.field('brands').fail('must name at least one brandId.');
  if (ids.length > 100) root.field('brands').fail('may name at most 100 brands.');
  return ids;
}
