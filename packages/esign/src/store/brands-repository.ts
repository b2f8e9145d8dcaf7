import type { Kysely } from 'kysely';
import type { Brand, BrandColors, BrandLogo, EnvelopeBrand, LogoType } from '../domain/brands/brand.ts';
import type { BrandStore } from '../domain/brands/brand-ports.ts';
import type { BrandRow } from './brand-tables.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Brands over SQLite or PostgreSQL. Every read and write names the account in the SQL, so a
 * brand id of another account is simply not found. Logo images are content-addressed and
 * written once.
 */
export class BrandsRepository implements BrandStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async save(brand: Brand, options: { create: boolean }): Promise<void> {
    const row = toBrandRow(brand);
    await this.#db.transaction(async (trx) => {
      // At most one signing and one sending default per account: the newest claim wins.
      if (brand.isSigningDefault) await trx.updateTable('brands').set({ is_signing_default: 0 }).where('account_id', '=', brand.accountId).where('id', '!=', brand.brandId).execute();
      if (brand.isSendingDefault) await trx.updateTable('brands').set({ is_sending_default: 0 }).where('account_id', '=', brand.accountId).where('id', '!=', brand.brandId).execute();
      if (options.create) await trx.insertInto('brands').values(row).execute();
      else {
        const { id: _id, account_id: _a, created_at: _c, ...fields } = row;
        await trx.updateTable('brands').set(fields).where('account_id', '=', brand.accountId).where('id', '=', brand.brandId).execute();
      }
    });
  }

  async find(accountId: string, brandId: string): Promise<Brand | undefined> {
    const row = await this.#db.kysely.selectFrom('brands').selectAll().where('account_id', '=', accountId).where('id', '=', brandId).executeTakeFirst();
    return row ? (await this.#hydrate([row]))[0] : undefined;
  }

  async list(accountId: string): Promise<Brand[]> {
    const rows = await this.#db.kysely.selectFrom('brands').selectAll().where('account_id', '=', accountId).orderBy('name').orderBy('id').execute();
    return this.#hydrate(rows);
  }

  async signingDefault(accountId: string): Promise<Brand | undefined> {
    const row = await this.#db.kysely.selectFrom('brands').selectAll().where('account_id', '=', accountId).where('is_signing_default', '=', 1).executeTakeFirst();
    return row ? (await this.#hydrate([row]))[0] : undefined;
  }

  async delete(accountId: string, brandIds: readonly string[]): Promise<void> {
    if (brandIds.length === 0) return;
    await this.#db.transaction(async (trx) => {
      const owned = (await trx.selectFrom('brands').select('id').where('account_id', '=', accountId).where('id', 'in', [...brandIds]).execute()).map((r) => r.id);
      if (owned.length === 0) return;
      await trx.deleteFrom('brand_logos').where('brand_id', 'in', owned).execute();
      await trx.deleteFrom('brands').where('account_id', '=', accountId).where('id', 'in', owned).execute();
    });
  }

  async putLogo(accountId: string, brandId: string, type: LogoType, logo: BrandLogo, bytes: Uint8Array): Promise<void> {
    await this.#db.transaction(async (trx) => {
      const owned = await trx.selectFrom('brands').select('id').where('account_id', '=', accountId).where('id', '=', brandId).executeTakeFirst();
      if (!owned) return;
      const stored = await trx.selectFrom('brand_images').select('sha256').where('sha256', '=', logo.sha256).executeTakeFirst();
      if (!stored) await trx.insertInto('brand_images').values({ sha256: logo.sha256, media_type: logo.mediaType, width: logo.width, height: logo.height, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }).execute();
      await trx.deleteFrom('brand_logos').where('brand_id', '=', brandId).where('logo_type', '=', type).execute();
      await trx.insertInto('brand_logos').values({ brand_id: brandId, logo_type: type, sha256: logo.sha256 }).execute();
    });
  }

  async deleteLogo(accountId: string, brandId: string, type: LogoType): Promise<void> {
    await this.#db.transaction(async (trx) => {
      const owned = await trx.selectFrom('brands').select('id').where('account_id', '=', accountId).where('id', '=', brandId).executeTakeFirst();
      if (owned) await trx.deleteFrom('brand_logos').where('brand_id', '=', brandId).where('logo_type', '=', type).execute();
    });
  }

  async logoImage(sha256: string): Promise<{ mediaType: string; bytes: Uint8Array } | undefined> {
    const row = await this.#db.kysely.selectFrom('brand_images').select(['media_type', 'bytes']).where('sha256', '=', sha256).executeTakeFirst();
    return row ? { mediaType: row.media_type, bytes: new Uint8Array(row.bytes) } : undefined;
  }

  async #hydrate(rows: readonly BrandRow[]): Promise<Brand[]> {
    if (rows.length === 0) return [];
    const logos = await this.#db.kysely.selectFrom('brand_logos')
      .innerJoin('brand_images', 'brand_images.sha256', 'brand_logos.sha256')
      .select(['brand_logos.brand_id', 'brand_logos.logo_type', 'brand_images.sha256', 'brand_images.media_type', 'brand_images.width', 'brand_images.height'])
      .where('brand_logos.brand_id', 'in', rows.map((r) => r.id))
      .execute();
    return rows.map((r) => ({
      brandId: r.id,
      accountId: r.account_id,
      name: r.name,
      ...(r.company !== null ? { company: r.company } : {}),
      ...(r.default_language !== null ? { defaultLanguage: r.default_language } : {}),
      languages: JSON.parse(r.languages_json) as string[],
      colors: JSON.parse(r.colors_json) as BrandColors,
      isSigningDefault: Number(r.is_signing_default) === 1,
      isSendingDefault: Number(r.is_sending_default) === 1,
      logos: Object.fromEntries(logos.filter((l) => l.brand_id === r.id).map((l) => [l.logo_type, { sha256: l.sha256, mediaType: l.media_type as BrandLogo['mediaType'], width: Number(l.width), height: Number(l.height) }])),
      createdAt: new Date(r.created_at),
    }));
  }
}

function toBrandRow(b: Brand): BrandRow {
  return {
    id: b.brandId,
    account_id: b.accountId,
    name: b.name,
    company: b.company ?? null,
    default_language: b.defaultLanguage ?? null,
    languages_json: JSON.stringify(b.languages),
    colors_json: JSON.stringify(b.colors),
    is_signing_default: b.isSigningDefault ? 1 : 0,
    is_sending_default: b.isSendingDefault ? 1 : 0,
    created_at: b.createdAt.toISOString(),
  };
}

/** Writes a new envelope's brand snapshot (inside the envelope's own transaction). */
export async function saveEnvelopeBrand(trx: Kysely<Database>, envelopeId: string, brand: EnvelopeBrand | undefined): Promise<void> {
  if (brand) await trx.insertInto('envelope_brands').values({ envelope_id: envelopeId, brand_json: JSON.stringify(brand) }).execute();
}

/** The brand snapshots of several envelopes, by envelope id. */
export async function loadEnvelopeBrands(k: Kysely<Database>, envelopeIds: readonly string[]): Promise<Map<string, EnvelopeBrand>> {
  const rows = await k.selectFrom('envelope_brands').selectAll().where('envelope_id', 'in', [...envelopeIds]).execute();
  return new Map(rows.map((r) => [r.envelope_id, JSON.parse(r.brand_json) as EnvelopeBrand]));
}
