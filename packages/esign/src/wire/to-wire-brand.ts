import { brandColorList } from '../domain/brands/brand-colors.ts';
import { LOGO_TYPES, type Brand } from '../domain/brands/brand.ts';

/**
 * DocuSign's Brand model (node_modules/docusign-esign/src/model/Brand.js) for a stored brand.
 * Logo URIs (BrandLogos) are the getBrandLogoByType paths, given when asked for (include_logos).
 */
export function toWireBrand(brand: Brand, options: { includeLogos: boolean }): Record<string, unknown> {
  const base = `/restapi/v2.1/accounts/${brand.accountId}/brands/${brand.brandId}`;
  return {
    brandId: brand.brandId,
    brandName: brand.name,
    ...(brand.company !== undefined ? { brandCompany: brand.company } : {}),
    ...(brand.defaultLanguage !== undefined ? { defaultBrandLanguage: brand.defaultLanguage } : {}),
    brandLanguages: [...brand.languages],
    colors: brandColorList(brand.colors),
    isSendingDefault: brand.isSendingDefault,
    isSigningDefault: brand.isSigningDefault,
    isOverridingCompanyName: brand.company !== undefined,
    isOrganizationBrand: 'false',
    emailContent: [],
    landingPages: [],
    links: [],
    ...(options.includeLogos && LOGO_TYPES.some((t) => brand.logos[t]) ? { logos: Object.fromEntries(LOGO_TYPES.filter((t) => brand.logos[t]).map((t) => [t, `${base}/logos/${t}`])) } : {}),
  };
}

/** BrandsResponse: the brands and the account's defaults. */
export function toWireBrands(brands: readonly Brand[], options: { includeLogos: boolean }): Record<string, unknown> {
  const recipientDefault = brands.find((b) => b.isSigningDefault)?.brandId;
  const senderDefault = brands.find((b) => b.isSendingDefault)?.brandId;
  return {
    brands: brands.map((b) => toWireBrand(b, options)),
    ...(recipientDefault ? { recipientBrandIdDefault: recipientDefault } : {}),
    ...(senderDefault ? { senderBrandIdDefault: senderDefault } : {}),
  };
}
