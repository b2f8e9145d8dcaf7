import { PostgresAdapter } from 'kysely';
import type { Migration } from './migrations.ts';

/**
 * Brands (domain/brands/brand.ts). Logo images are stored once by their SHA-256 in
 * `brand_images` and kept when a brand lets go of them: an envelope keeps the look it was sent
 * with (`envelope_brands`, a JSON snapshot of domain/brands/brand.ts EnvelopeBrand).
 * Same conventions as schema.ts: ISO-8601 UTC text timestamps, 0/1 flags.
 */
export type BrandRow = {
  id: string;
  account_id: string;
  name: string;
  company: string | null;
  default_language: string | null;
  languages_json: string;
  colors_json: string;
  is_signing_default: number;
  is_sending_default: number;
  created_at: string;
};
export type BrandImageRow = { sha256: string; media_type: string; width: number; height: number; bytes: Uint8Array };
export type BrandLogoRow = { brand_id: string; logo_type: string; sha256: string };
export type EnvelopeBrandRow = { envelope_id: string; brand_json: string };
export type TemplateBrandRow = { template_id: string; brand_id: string };

export type BrandTables = {
  brands: BrandRow;
  brand_images: BrandImageRow;
  brand_logos: BrandLogoRow;
  envelope_brands: EnvelopeBrandRow;
  template_brands: TemplateBrandRow;
};

export const BRAND_TABLES_MIGRATION: Migration = {
  version: 97,
  name: 'brands, logo images, envelope and template brands',
  async up(db) {
    const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
    const s = db.schema;
    await s.createTable('brands')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('company', 'text')
      .addColumn('default_language', 'text')
      .addColumn('languages_json', 'text', (c) => c.notNull())
      .addColumn('colors_json', 'text', (c) => c.notNull())
      .addColumn('is_signing_default', 'integer', (c) => c.notNull())
      .addColumn('is_sending_default', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await s.createIndex('brands_account_idx').on('brands').columns(['account_id', 'name']).execute();
    await s.createTable('brand_images')
      .addColumn('sha256', 'text', (c) => c.primaryKey())
      .addColumn('media_type', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('bytes', bytes, (c) => c.notNull())
      .execute();
    await s.createTable('brand_logos')
      .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
      .addColumn('logo_type', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull().references('brand_images.sha256'))
      .addPrimaryKeyConstraint('brand_logos_pk', ['brand_id', 'logo_type'])
      .execute();
    await s.createTable('envelope_brands')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('brand_json', 'text', (c) => c.notNull())
      .execute();
    // A template's brand is a reference (the template follows the brand's changes); a
    // deleted brand leaves it without one (domain/brands/brand-use-cases.ts resolveEnvelopeBrand).
    await s.createTable('template_brands')
      .addColumn('template_id', 'text', (c) => c.primaryKey().references('templates.id'))
      .addColumn('brand_id', 'text', (c) => c.notNull())
      .execute();
  },
};
