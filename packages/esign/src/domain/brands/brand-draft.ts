import type { BrandColors } from './brand.ts';

/** A validated Brand request body (restapi/brands/parse-brand.ts); absent fields are left as they are on update. */
export type BrandDraft = {
  readonly name?: string;
  readonly company?: string;
  readonly defaultLanguage?: string;
  readonly languages?: readonly string[];
  readonly colors?: BrandColors;
  readonly isSigningDefault?: boolean;
  readonly isSendingDefault?: boolean;
};
