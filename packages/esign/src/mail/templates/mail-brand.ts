import type { EnvelopeBrand } from '../../domain/brands/brand.ts';

/** Where logo images are served by the SHA-256 of their content (signing/install-signing.ts serves it). */
export const LOGO_PATH = '/signing/assets/logos/';

/** What a mail shows of an envelope's brand: its company name, colours and logo (an absolute URL: mail clients fetch it). */
export type MailBrand = {
  readonly company?: string;
  readonly logoUrl?: string;
  readonly headerBackground?: string;
  readonly headerText?: string;
  readonly buttonBackground?: string;
  readonly buttonText?: string;
};

export function mailBrandOf(brand: EnvelopeBrand | undefined, publicUrl: string): MailBrand | undefined {
  if (!brand) return undefined;
  const c = brand.colors;
  return {
    ...(brand.company !== undefined ? { company: brand.company } : {}),
    ...(brand.emailLogo ? { logoUrl: `${publicUrl}${LOGO_PATH}${brand.emailLogo.sha256}` } : {}),
    ...(c.headerBackground ? { headerBackground: c.headerBackground } : {}),
    ...(c.headerText ? { headerText: c.headerText } : {}),
    ...(c.buttonPrimaryBackground ? { buttonBackground: c.buttonPrimaryBackground } : {}),
    ...(c.buttonPrimaryText ? { buttonText: c.buttonPrimaryText } : {}),
  };
}
