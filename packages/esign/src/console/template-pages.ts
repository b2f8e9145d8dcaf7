import type { Template, TemplateRole } from '../domain/templates/template.ts';
import type { UserRow } from '../store/schema.ts';
import { html, layout } from '../web/html.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { signedInNav } from './pages.ts';

/** The formats a template document may be uploaded in (the converter's). */
const ACCEPT = '.pdf,.docx,.doc,.odt,.rtf,.txt,.html,.htm,.xlsx,.xls,.ods,.pptx,.ppt,.odp';

/** The account's templates, with their ids for the SDK, and the upload form. */
// Templates hold every recipient type (made through the API); the console adds signers and carbon copies.
const TYPE_LABELS: Readonly<Record<TemplateRole['type'], string>> = {
  signer: 'Signer', carbonCopy: 'Carbon copy', inPersonSigner: 'In-person signer', certifiedDelivery: 'Certified delivery',
  agent: 'Agent', editor: 'Editor', intermediary: 'Intermediary', witness: 'Witness',
};

export function templatesPage(v: { user: UserRow; csrf: string; templates: readonly Template[]; error?: string | undefined }): string {
  const rows = v.templates.map((t) => html`<tr><td><a href="/console/templates/${t.templateId}">${t.name}</a></td><td><code data-field="template-id">${t.templateId}</code></td><td>${t.roles.length}</td></tr>`);
  return layout('Templates', html`<section>
${errorBox(v.error)}
<p>Use a template's ID as <code>templateId</code> in an envelope definition, with <code>templateRoles</code> naming its roles.</p>
<table><thead><tr><th>Name</th><th>Template ID</th><th>Roles</th></tr></thead><tbody>${rows}</tbody></table>
</section>
<section><h2>New template</h2>
<form method="post" action="/console/templates" enctype="multipart/form-data">
${csrfInput(v.csrf)}
<label for="name">Name</label><input id="name" type="text" name="name" required maxlength="100">
<label for="document">Document</label><input id="document" type="file" name="document" required accept="${ACCEPT}">
<button type="submit">Upload</button>
</form></section>
<p><a href="/console">Back to the console</a></p>`, signedInNav(v.user, v.csrf));
}

/**
 * One template: its id, its roles (add one), and its pages as images. Clicking a page places a
 * SignHere tab for the chosen role where the click was: each page is an image button, so the
 * browser sends the click's coordinates with the form, and the page needs no script.
 */
export function templatePage(v: { user: UserRow; csrf: string; template: Template; role: string | undefined; pageWidths: ReadonlyMap<string, readonly number[]>; error?: string | undefined }): string {
  const t = v.template;
  const signers = t.roles.filter((r) => r.type === 'signer');
  const chosen = signers.find((r) => r.recipientId === v.role) ?? signers[0];
  const roles = t.roles.map((r) => html`<tr><td>${r.roleName ?? ''}</td><td>${TYPE_LABELS[r.type]}</td><td>${r.routingOrder}</td><td>${r.tabs.length}</td><td>${r.type === 'signer' ? (r === chosen ? html`<strong>placing</strong>` : html`<a href="/console/templates/${t.templateId}?role=${r.recipientId}">place tabs</a>`) : ''}</td></tr>`);
  const tabs = t.roles.flatMap((r) => r.tabs.map((x) => html`<tr data-tab><td>${r.roleName ?? r.recipientId}</td><td>${x.documentId}</td><td>${x.pageNumber}</td><td>${Math.round(x.xPosition)}</td><td>${Math.round(x.yPosition)}</td></tr>`));
  const pages = t.documents.flatMap((d) => (v.pageWidths.get(d.documentId) ?? []).map((width, i) => html`<figure>
<figcaption>${d.name}, page ${i + 1}</figcaption>
${chosen ? html`<form method="post" action="/console/templates/${t.templateId}/tabs">
${csrfInput(v.csrf)}<input type="hidden" name="recipientId" value="${chosen.recipientId}"><input type="hidden" name="documentId" value="${d.documentId}"><input type="hidden" name="pageNumber" value="${i + 1}">
<input type="image" name="at" width="${width}" src="/console/templates/${t.templateId}/documents/${d.documentId}/pages/${i + 1}" alt="${d.name}, page ${i + 1}: click to place a signature for ${chosen.roleName ?? chosen.recipientId}">
</form>` : html`<img width="${width}" src="/console/templates/${t.templateId}/documents/${d.documentId}/pages/${i + 1}" alt="${d.name}, page ${i + 1}">`}
</figure>`));
  return layout(t.name, html`<section>
${errorBox(v.error)}
<dl><dt>Template ID</dt><dd><code data-field="template-id">${t.templateId}</code></dd><dt>E-mail subject</dt><dd>${t.emailSubject}</dd></dl>
<h2>Roles</h2>
<table><thead><tr><th>Role</th><th>Type</th><th>Routing order</th><th>Tabs</th><th></th></tr></thead><tbody>${roles}</tbody></table>
<form method="post" action="/console/templates/${t.templateId}/roles">
${csrfInput(v.csrf)}
<label for="roleName">Role name</label><input id="roleName" type="text" name="roleName" required maxlength="100">
<label for="type">Type</label><select id="type" name="type"><option value="signer">Signer</option><option value="carbonCopy">Carbon copy</option></select>
<button type="submit">Add role</button>
</form>
<h2>Signature tabs</h2>
<table><thead><tr><th>Role</th><th>Document</th><th>Page</th><th>x</th><th>y</th></tr></thead><tbody>${tabs}</tbody></table>
${chosen ? html`<p>Click on a page to place a signature for <strong>${chosen.roleName ?? chosen.recipientId}</strong>.</p>` : html`<p>Add a signer role to place signatures.</p>`}
${pages}
</section>
<p><a href="/console/templates">Back to templates</a></p>`, signedInNav(v.user, v.csrf));
}
