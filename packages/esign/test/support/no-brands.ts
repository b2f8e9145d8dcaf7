import type { BrandStore } from '../../src/domain/brands/brand-ports.ts';

/** An account without brands, for use-case tests that are not about them: nothing is found, writes are refused. */
export const NO_BRANDS: BrandStore = {
  save: () => Promise.reject(new Error('no brands in this test')),
  find: () => Promise.resolve(undefined),
  list: () => Promise.resolve([]),
  delete: () => Promise.resolve(),
  putLogo: () => Promise.reject(new Error('no brands in this test')),
  deleteLogo: () => Promise.resolve(),
  logoImage: () => Promise.resolve(undefined),
  signingDefault: () => Promise.resolve(undefined),
};
