/**
 * An account's brand (DocuSign's Brand model, node_modules/docusign-esign/src/model/Brand.js):
 * the company name, colours and logos recipients see on the signing page and in the mails of
 * an envelope sent with it (docs/esign-brands.md).
 */

/** The logo slots of DocuSign's BrandLogos: the signing page shows primary, mails show email (else primary). */
export const LOGO_TYPES = ['primary', 'secondary', 'email'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/**
 * The colour names DocuSign's brands carry in `colors` (a NameValue list): the header bar and
 * the primary button, each a background and a text colour.
 */
export const BRAND_COLOR_NAMES = ['buttonPrimaryBackground', 'buttonPrimaryText', 'headerBackground', 'headerText'] as const;
export type BrandColorName = (typeof BRAND_COLOR_NAMES)[number];
/** `#rrggbb`, lower case (domain/brands/brand-colors.ts checks and normalizes). */
export type BrandColors = Partial<Record<BrandColorName, string>>;

/** A checked logo image, stored once by its content (domain/brands/check-logo.ts). */
export type BrandLogo = {
  readonly sha256: string;
  readonly mediaType: 'image/png' | 'image/jpeg' | 'image/gif';
  readonly width: number;
  readonly height: number;
};

export type Brand = {
  readonly brandId: string;
  readonly accountId: string;
  readonly name: string;
  readonly company?: string;
  /** A language code as DocuSign writes them (`en`, `de`, `pt_BR`, `zh_CN`). */
  readonly defaultLanguage?: string;
  readonly languages: readonly string[];
  readonly colors: BrandColors;
  /** The account's default brand for recipients (isSigningDefault) and for senders (isSendingDefault): at most one each per account. */
  readonly isSigningDefault: boolean;
  readonly isSendingDefault: boolean;
  readonly logos: Partial<Record<LogoType, BrandLogo>>;
  readonly createdAt: Date;
};

/**
 * What an envelope keeps of its brand when it is created: the look its recipients get. A
 * snapshot, as an envelope keeps a copy of its template: changing or deleting the brand later
 * leaves envelopes already sent as they were (logo images are stored by content and kept).
 */
export type EnvelopeBrand = {
  readonly brandId: string;
  readonly company?: string;
  readonly colors: BrandColors;
  /** The signing page's logo. */
  readonly logo?: BrandLogo;
  /** The mails' logo: the email slot, else primary. */
  readonly emailLogo?: BrandLogo;
  /** defaultBrandLanguage: recipients without a language of their own read this one (domain/language/languages.ts). */
  readonly language?: string;
};

/** The look an envelope sent with `brand` carries. */
export function envelopeBrandOf(brand: Brand): EnvelopeBrand {
  const logo = brand.logos.primary;
  const emailLogo = brand.logos.email ?? brand.logos.primary;
  return {
    brandId: brand.brandId,
    ...(brand.company !== undefined ? { company: brand.company } : {}),
    colors: brand.colors,
    ...(logo ? { logo } : {}),
    ...(emailLogo ? { emailLogo } : {}),
    ...(brand.defaultLanguage !== undefined ? { language: brand.defaultLanguage } : {}),
  };
}
