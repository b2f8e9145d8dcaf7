import type { Brand, BrandLogo, LogoType } from './brand.ts';

/** Brand persistence (store/brands-repository.ts). Every read and write names the account. */
export interface BrandStore {
  /**
   * Inserts or replaces a brand. A brand saved as the account's signing (or sending) default
   * takes that place from the account's other brands in the same transaction: at most one each.
   */
  save(brand: Brand, options: { create: boolean }): Promise<void>;
  find(accountId: string, brandId: string): Promise<Brand | undefined>;
  /** The account's brands by name. */
  list(accountId: string): Promise<Brand[]>;
  /** Deletes the brands and their logo slots (the images stay: envelopes sent with them show them). */
  delete(accountId: string, brandIds: readonly string[]): Promise<void>;
  /** Stores the image (once per content) and points the brand's slot at it. */
  putLogo(accountId: string, brandId: string, type: LogoType, logo: BrandLogo, bytes: Uint8Array): Promise<void>;
  deleteLogo(accountId: string, brandId: string, type: LogoType): Promise<void>;
  /** A stored logo image by its SHA-256: the address of the content, so it reveals nothing else. */
  logoImage(sha256: string): Promise<{ mediaType: string; bytes: Uint8Array } | undefined>;
  /** The account's default brand for recipients (isSigningDefault), if it has one. */
  signingDefault(accountId: string): Promise<Brand | undefined>;
}

export type BrandDeps = {
  readonly brands: BrandStore;
  readonly clock: () => Date;
  readonly uuid: () => string;
};
