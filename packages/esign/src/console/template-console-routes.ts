import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { createTemplate, getTemplate } from '../domain/templates/create-template.ts';
import { addTemplateRoles, addTemplateTabs } from '../domain/templates/edit-template-content.ts';
import type { TemplateDeps } from '../domain/templates/template-deps.ts';
import { EsignError } from '../errors.ts';
import type { UserAccount } from '../store/index.ts';
import type { UserRow } from '../store/schema.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { sessionUser } from '../web/session.ts';
import { templatePage, templatesPage } from './template-pages.ts';
import { signHereTab } from '../domain/tabs/sign-here-tab.ts';

const HTML = 'text/html; charset=utf-8';
/** The resolution page images are rendered at (the signing page's): image pixels → points. */
export const PAGE_IMAGE_DPI = 110;

/** Page images and sizes (server.ts hands in the signing page's renderer). */
export type PageImages = {
  pageSizes(key: string, pdf: () => Promise<Uint8Array>): Promise<{ width: number; height: number }[]>;
  jpeg(key: string, pageNumber: number, pdf: () => Promise<Uint8Array>): Promise<Buffer>;
};

type UploadedFile = { readonly name: string; readonly bytes: Uint8Array };
type TemplateParams = { Params: { templateId: string } };

/**
 * The console's Templates pages: upload a document to make a template, add roles, place SignHere
 * tabs by clicking on the rendered pages, and read the template id to use from the SDK. The
 * template use cases are the API's own. Uploads are multipart forms, parsed only here.
 */
export function registerTemplateConsoleRoutes(app: FastifyInstance, ctx: EsignContext, deps: { templates: TemplateDeps; pages: PageImages }): void {
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer | string) => {
      const form = await new Request('http://console.local/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body }).formData();
      const fields: Record<string, string | UploadedFile> = {};
      for (const [key, value] of form) fields[key] = typeof value === 'string' ? value : { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
      return fields;
    });
    registerPages(scope, ctx, deps);
    done();
  });
}

function registerPages(app: FastifyInstance, ctx: EsignContext, deps: { templates: TemplateDeps; pages: PageImages }): void {
  const store = deps.templates.templates;

  async function signedIn(request: FastifyRequest, reply: FastifyReply, returnTo: string): Promise<{ user: UserRow; account: UserAccount } | undefined> {
    const user = await sessionUser(ctx, request);
    if (!user) {
      await reply.redirect(`/login?return_to=${encodeURIComponent(returnTo)}`, 303);
      return undefined;
    }
    const account = (await ctx.store.accounts.accountsOf(user.id))[0];
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    return { user, account };
  }

  const pdfOf = (accountId: string, templateId: string, documentId: string) => async () => {
    const pdf = await store.documentPdf(accountId, templateId, documentId);
    if (!pdf) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
    return pdf;
  };

  async function showTemplate(request: FastifyRequest, reply: FastifyReply, who: { user: UserRow; account: UserAccount }, templateId: string, extra: { role?: string | undefined; error?: string; status?: number } = {}) {
    const template = await getTemplate(deps.templates, who.account.accountId, templateId);
    const pageWidths = new Map<string, number[]>();
    for (const d of template.documents) {
      const sizes = await deps.pages.pageSizes(`template:${d.sha256}`, pdfOf(who.account.accountId, templateId, d.documentId));
      pageWidths.set(d.documentId, sizes.map((s) => Math.round((s.width * PAGE_IMAGE_DPI) / 72)));
    }
    const page = templatePage({ user: who.user, csrf: csrfTokenFor(ctx, request, reply), template, role: extra.role, pageWidths, error: extra.error });
    return reply.code(extra.status ?? 200).type(HTML).send(page);
  }

  /** Runs a form action on a template; an exposed EsignError is shown on its page. */
  async function action(request: FastifyRequest, reply: FastifyReply, templateId: string, run: (accountId: string) => Promise<string | undefined>) {
    const who = await signedIn(request, reply, `/console/templates/${templateId}`);
    if (!who) return reply;
    assertCsrf(request);
    try {
      const role = await run(who.account.accountId);
      return await reply.redirect(`/console/templates/${templateId}${role ? `?role=${encodeURIComponent(role)}` : ''}`, 303);
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose || err.code === 'TEMPLATE_ID_INVALID') throw err;
      return showTemplate(request, reply, who, templateId, { error: err.message, status: err.status, role: formField(request.body, 'recipientId') });
    }
  }

  app.get('/console/templates', async (request, reply) => {
    const who = await signedIn(request, reply, '/console/templates');
    if (!who) return reply;
    const { templates } = await store.list(who.account.accountId, { startPosition: 0, count: 500 });
    return reply.type(HTML).send(templatesPage({ user: who.user, csrf: csrfTokenFor(ctx, request, reply), templates }));
  });

  app.post('/console/templates', async (request, reply) => {
    const who = await signedIn(request, reply, '/console/templates');
    if (!who) return reply;
    assertCsrf(request);
    const body = request.body as Record<string, unknown> | undefined;
    const file = body?.document;
    const name = formField(body, 'name')?.trim().slice(0, 100);
    try {
      if (typeof file !== 'object' || file === null || (file as UploadedFile).bytes.byteLength === 0) throw new EsignError('INVALID_REQUEST_BODY', 'Choose a document to upload.');
      const upload = file as UploadedFile;
      const fileExtension = /\.([A-Za-z0-9]{1,10})$/.exec(upload.name)?.[1]?.toLowerCase() ?? 'pdf';
      const documentName = upload.name.slice(0, 255) || 'Document';
      const template = await createTemplate(deps.templates, { accountId: who.account.accountId, ownerUserId: who.user.id, draft: { name: name || documentName, emailSubject: `Please sign: ${documentName}`.slice(0, 100), shared: false, documents: [{ documentId: '1', name: documentName, fileExtension, bytes: upload.bytes }], roles: [] } });
      return await reply.redirect(`/console/templates/${template.templateId}`, 303);
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose) throw err;
      const { templates } = await store.list(who.account.accountId, { startPosition: 0, count: 500 });
      return reply.code(err.status).type(HTML).send(templatesPage({ user: who.user, csrf: csrfTokenFor(ctx, request, reply), templates, error: err.message }));
    }
  });

  app.get<TemplateParams & { Querystring: { role?: string } }>('/console/templates/:templateId', async (request, reply) => {
    const who = await signedIn(request, reply, `/console/templates/${request.params.templateId}`);
    if (!who) return reply;
    return showTemplate(request, reply, who, request.params.templateId, { role: request.query.role });
  });

  app.post<TemplateParams>('/console/templates/:templateId/roles', async (request, reply) =>
    action(request, reply, request.params.templateId, async (accountId) => {
      const roleName = formField(request.body, 'roleName')?.trim().slice(0, 100);
      if (!roleName) throw new EsignError('INVALID_REQUEST_BODY', 'A role needs a name.');
      const type = formField(request.body, 'type') === 'carbonCopy' ? 'carbonCopy' : 'signer';
      const current = await getTemplate(deps.templates, accountId, request.params.templateId);
      const recipientId = String(Math.max(0, ...current.roles.map((r) => Number(r.recipientId) || 0)) + 1);
      await addTemplateRoles(deps.templates, accountId, request.params.templateId, [{ type, recipientId, roleName, name: '', email: '', routingOrder: current.roles.length + 1, tabs: [] }]);
      return type === 'signer' ? recipientId : undefined;
    }));

  app.post<TemplateParams>('/console/templates/:templateId/tabs', async (request, reply) =>
    action(request, reply, request.params.templateId, async (accountId) => {
      const number = (field: string) => {
        const text = formField(request.body, field) ?? '';
        if (!/^\d{1,6}$/.test(text)) throw new EsignError('INVALID_REQUEST_BODY', `${field} is missing.`);
        return Number(text);
      };
      const recipientId = formField(request.body, 'recipientId') ?? '';
      const documentId = formField(request.body, 'documentId') ?? '';
      // The click, in image pixels at PAGE_IMAGE_DPI, is the tab's top-left corner in points.
      const toPoints = (px: number) => Math.round(((px * 72) / PAGE_IMAGE_DPI) * 100) / 100;
      await addTemplateTabs(deps.templates, accountId, request.params.templateId, recipientId, [signHereTab({ documentId, pageNumber: number('pageNumber'), xPosition: toPoints(number('at.x')), yPosition: toPoints(number('at.y')) })]);
      return recipientId;
    }));

  app.get<{ Params: { templateId: string; documentId: string; page: string } }>('/console/templates/:templateId/documents/:documentId/pages/:page', async (request, reply) => {
    const who = await signedIn(request, reply, `/console/templates/${request.params.templateId}`);
    if (!who) return reply;
    const { templateId, documentId } = request.params;
    const template = await getTemplate(deps.templates, who.account.accountId, templateId);
    const document = template.documents.find((d) => d.documentId === documentId);
    const page = Number(request.params.page);
    if (!document || !Number.isInteger(page) || page < 1 || page > document.pageCount) throw new EsignError('RESOURCE_NOT_FOUND');
    const jpeg = await deps.pages.jpeg(`template:${document.sha256}`, page, pdfOf(who.account.accountId, templateId, documentId));
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=300').send(jpeg);
  });
}
