import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LOGO_TYPES, type LogoType } from '../../domain/brands/brand.ts';
import type { BrandDeps } from '../../domain/brands/brand-ports.ts';
import { createBrand, deleteBrandLogo, deleteBrands, getBrand, setBrandLogo, updateBrand } from '../../domain/brands/brand-use-cases.ts';
import { MAX_LOGO_BYTES } from '../../domain/brands/check-logo.ts';
import { EsignError } from '../../errors.ts';
import { toWireBrand, toWireBrands } from '../../wire/to-wire-brand.ts';
import { parseBrand, parseBrandIds } from './parse-brand.ts';

type AccountParams = { accountId: string };
type BrandParams = AccountParams & { brandId: string };
type LogoParams = BrandParams & { logoType: string };
type RawQuery = Record<string, string | string[] | undefined>;

const BASE = '/restapi/v2.1/accounts/:accountId/brands';
// Whatever type the client names, the bytes decide (domain/brands/check-logo.ts).
const LOGO_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'image/bmp', 'image/webp', 'application/octet-stream'];
const RESOURCES = 'brand resource files (the XML of the signing, sending and e-mail resources) are not supported (docs/esign-brands.md)';

function flag(query: RawQuery, name: string): boolean {
  const v = query[name];
  return String(Array.isArray(v) ? v[0] : v ?? '').toLowerCase() === 'true';
}

function logoType(request: FastifyRequest<{ Params: LogoParams }>): LogoType {
  const type = LOGO_TYPES.find((t) => t === request.params.logoType.toLowerCase());
  if (!type) throw new EsignError('INVALID_REQUEST_PARAMETER', `logoType must be one of ${LOGO_TYPES.join(', ')}, got "${request.params.logoType}".`);
  return type;
}

/**
 * AccountsApi's brand calls (the SDK's paths): createBrand, listBrands, getBrand, updateBrand,
 * deleteBrand, deleteBrands, and the logos by type. Behind the API guard (token, scope, account
 * membership); every use case names the account, so another account's brand id is unknown here.
 */
export function registerBrandRoutes(app: FastifyInstance, deps: BrandDeps): void {
  app.post<{ Params: AccountParams }>(BASE, async (request, reply) => {
    const brand = await createBrand(deps, request.params.accountId, parseBrand(request.body));
    return reply.code(201).send(toWireBrands([brand], { includeLogos: false }));
  });

  app.get<{ Params: AccountParams; Querystring: RawQuery }>(BASE, async (request) => {
    // exclude_distributor_brand: there are no distributor brands here, so there is nothing to exclude.
    return toWireBrands(await deps.brands.list(request.params.accountId), { includeLogos: flag(request.query, 'include_logos') });
  });

  app.delete<{ Params: AccountParams }>(BASE, async (request) => {
    await deleteBrands(deps, request.params.accountId, parseBrandIds(request.body));
    return toWireBrands(await deps.brands.list(request.params.accountId), { includeLogos: false });
  });

  app.get<{ Params: BrandParams; Querystring: RawQuery }>(`${BASE}/:brandId`, async (request) => {
    if (flag(request.query, 'include_external_references')) throw new EsignError('INVALID_REQUEST_PARAMETER', 'include_external_references: external references of a brand are not supported.');
    const brand = await getBrand(deps, request.params.accountId, request.params.brandId);
    return toWireBrand(brand, { includeLogos: flag(request.query, 'include_logos') });
  });

  app.put<{ Params: BrandParams }>(`${BASE}/:brandId`, async (request) => {
    const brand = await updateBrand(deps, request.params.accountId, request.params.brandId, parseBrand(request.body));
    return toWireBrand(brand, { includeLogos: true });
  });

  app.delete<{ Params: BrandParams }>(`${BASE}/:brandId`, async (request) => {
    await deleteBrands(deps, request.params.accountId, [request.params.brandId]);
    return {};
  });

  app.get<{ Params: LogoParams }>(`${BASE}/:brandId/logos/:logoType`, async (request, reply) => {
    const type = logoType(request);
    const brand = await getBrand(deps, request.params.accountId, request.params.brandId);
    const logo = brand.logos[type];
    const image = logo ? await deps.brands.logoImage(logo.sha256) : undefined;
    if (!logo || !image) throw new EsignError('BRAND_LOGO_INVALID', `the brand has no ${type} logo.`);
    return reply.type(logo.mediaType).header('x-content-type-options', 'nosniff').header('content-disposition', `inline; filename="${type}"`).send(Buffer.from(image.bytes));
  });

  app.delete<{ Params: LogoParams }>(`${BASE}/:brandId/logos/:logoType`, async (request) => {
    await deleteBrandLogo(deps, request.params.accountId, request.params.brandId, logoType(request));
    return {};
  });

  // The SDK sends the logo's bytes as the body (Content-Type image/png): read only on this
  // route, one byte past the bound so that a larger file is named as such by check-logo.ts.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(LOGO_UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES + 1 }, (_request, body, next) => next(null, body));
    scope.put<{ Params: LogoParams }>(`${BASE}/:brandId/logos/:logoType`, async (request) => {
      const type = logoType(request);
      if (!Buffer.isBuffer(request.body)) throw new EsignError('BRAND_LOGO_INVALID', 'send the image itself as the body (Content-Type image/png, image/jpeg or image/gif).');
      await setBrandLogo(deps, request.params.accountId, request.params.brandId, type, request.body);
      return {};
    });
    done();
  });

  // Brand resource files and the brand export: refused by name, never a 200 that did nothing.
  app.get<{ Params: BrandParams }>(`${BASE}/:brandId/resources`, async (request) => {
    await getBrand(deps, request.params.accountId, request.params.brandId);
    return { resourcesContentTypes: [] };
  });
  for (const method of ['GET', 'PUT'] as const) {
    app.route<{ Params: BrandParams }>({ method, url: `${BASE}/:brandId/resources/:resourceContentType`, handler: async (request) => {
      await getBrand(deps, request.params.accountId, request.params.brandId);
      throw new EsignError('INVALID_REQUEST_PARAMETER', `${RESOURCES}.`);
    } });
  }
  app.get<{ Params: BrandParams }>(`${BASE}/:brandId/file`, async (request) => {
    await getBrand(deps, request.params.accountId, request.params.brandId);
    throw new EsignError('INVALID_REQUEST_PARAMETER', 'exporting a brand as a file is not supported (docs/esign-brands.md).');
  });
}
