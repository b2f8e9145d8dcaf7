import { EsignError } from '../../errors.ts';
import type { Brand, EnvelopeBrand, LogoType } from './brand.ts';
import { envelopeBrandOf } from './brand.ts';
import type { BrandDraft } from './brand-draft.ts';
import type { BrandDeps, BrandStore } from './brand-ports.ts';
import { checkLogo } from './check-logo.ts';

/** AccountsApi.createBrand: a brand needs a name; the rest is optional. */
export async function createBrand(deps: BrandDeps, accountId: string, draft: BrandDraft): Promise<Brand> {
  if (!draft.name) throw new EsignError('INVALID_REQUEST_BODY', 'brandName is required.');
  const brand: Brand = {
    brandId: deps.uuid(),
    accountId,
    name: draft.name,
    ...(draft.company !== undefined ? { company: draft.company } : {}),
    ...(draft.defaultLanguage !== undefined ? { defaultLanguage: draft.defaultLanguage } : {}),
    languages: draft.languages ?? (draft.defaultLanguage ? [draft.defaultLanguage] : []),
    colors: draft.colors ?? {},
    isSigningDefault: draft.isSigningDefault ?? false,
    isSendingDefault: draft.isSendingDefault ?? false,
    logos: {},
    createdAt: deps.clock(),
  };
  await deps.brands.save(brand, { create: true });
  return brand;
}

/** The account's brand, or BRAND_ID_INVALID (another account's brand is unknown here). */
export async function getBrand(deps: Pick<BrandDeps, 'brands'>, accountId: string, brandId: string): Promise<Brand> {
  const brand = await deps.brands.find(accountId, brandId);
  if (!brand) throw new EsignError('BRAND_ID_INVALID', `brandId "${brandId}" is not a brand of this account.`);
  return brand;
}

/** AccountsApi.updateBrand: the fields given replace the brand's (colours as a whole list). */
export async function updateBrand(deps: BrandDeps, accountId: string, brandId: string, draft: BrandDraft): Promise<Brand> {
  const brand = await getBrand(deps, accountId, brandId);
  const next: Brand = {
    ...brand,
    ...(draft.name !== undefined ? { name: draft.name } : {}),
    ...(draft.company !== undefined ? { company: draft.company } : {}),
    ...(draft.defaultLanguage !== undefined ? { defaultLanguage: draft.defaultLanguage } : {}),
    ...(draft.languages !== undefined ? { languages: draft.languages } : {}),
    ...(draft.colors !== undefined ? { colors: draft.colors } : {}),
    ...(draft.isSigningDefault !== undefined ? { isSigningDefault: draft.isSigningDefault } : {}),
    ...(draft.isSendingDefault !== undefined ? { isSendingDefault: draft.isSendingDefault } : {}),
  };
  await deps.brands.save(next, { create: false });
  return next;
}

/** AccountsApi.deleteBrand(s): every id is checked before any is deleted. */
export async function deleteBrands(deps: Pick<BrandDeps, 'brands'>, accountId: string, brandIds: readonly string[]): Promise<Brand[]> {
  const brands: Brand[] = [];
  for (const id of brandIds) brands.push(await getBrand(deps, accountId, id));
  await deps.brands.delete(accountId, brandIds);
  return brands;
}

/** AccountsApi.updateBrandLogoByType: the bytes are checked (check-logo.ts) before anything is stored. */
export async function setBrandLogo(deps: Pick<BrandDeps, 'brands'>, accountId: string, brandId: string, type: LogoType, bytes: Uint8Array): Promise<void> {
  await getBrand(deps, accountId, brandId);
  const logo = checkLogo(bytes);
  await deps.brands.putLogo(accountId, brandId, type, logo, bytes);
}

export async function deleteBrandLogo(deps: Pick<BrandDeps, 'brands'>, accountId: string, brandId: string, type: LogoType): Promise<void> {
  const brand = await getBrand(deps, accountId, brandId);
  if (!brand.logos[type]) throw new EsignError('BRAND_LOGO_INVALID', `the brand has no ${type} logo.`);
  await deps.brands.deleteLogo(accountId, brandId, type);
}

/**
 * The look a new envelope takes: the brand it names (which must be the account's:
 * BRAND_ID_INVALID otherwise, another account's included), else its template's brand while that
 * brand exists, else the account's signing default, else none.
 */
export async function resolveEnvelopeBrand(brands: BrandStore, accountId: string, requested: string | undefined, fromTemplate?: string): Promise<EnvelopeBrand | undefined> {
  if (requested !== undefined) return envelopeBrandOf(await getBrand({ brands }, accountId, requested));
  const templateBrand = fromTemplate === undefined ? undefined : await brands.find(accountId, fromTemplate);
  const brand = templateBrand ?? (await brands.signingDefault(accountId));
  return brand ? envelopeBrandOf(brand) : undefined;
}
