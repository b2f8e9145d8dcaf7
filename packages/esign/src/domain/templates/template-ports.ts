import type { Template } from './template.ts';

/** listTemplates' filter (restapi/templates parses the query). */
export type TemplateQuery = {
  /** Only templates whose name contains it (ASCII case folded), as DocuSign's search_text. */
  readonly searchText?: string;
  /** listTemplates' order_by and order: by name (the default) or last modification. */
  readonly orderBy?: 'name' | 'modified';
  readonly order?: 'asc' | 'desc';
  /** user_filter: only this user's templates (owned_by_me), or only others' (shared_with_me: every template is shared with its account here). */
  readonly owner?: { readonly userId: string; readonly mine: boolean };
  /** template_ids: only these. */
  readonly templateIds?: readonly string[];
  readonly startPosition: number;
  readonly count: number;
};

/** Template persistence (store/templates-repository.ts). Every call is scoped to one account. */
export interface TemplateStore {
  /** Stores a new template with its PDFs (by documentId), all or nothing. */
  create(template: Template, pdfs: ReadonlyMap<string, Uint8Array>): Promise<void>;
  find(accountId: string, templateId: string): Promise<Template | undefined>;
  list(accountId: string, query: TemplateQuery): Promise<{ templates: Template[]; totalSetSize: number }>;
  /** Saves the template's own fields; false when it is not (or no longer) there. */
  update(template: Template): Promise<boolean>;
  /**
   * Replaces the template's fields, documents and roles, if it was last modified at
   * `expectedLastModified` (false otherwise, or when it is not there). PDFs are written for the
   * documents in `pdfs`; the other documents keep theirs; documents no longer listed go.
   */
  replaceContent(template: Template, pdfs: ReadonlyMap<string, Uint8Array>, expectedLastModified: Date): Promise<boolean>;
  /** Deletes it with its documents and roles; false when it was not there. */
  delete(accountId: string, templateId: string): Promise<boolean>;
  /** The stored PDF of one document. */
  documentPdf(accountId: string, templateId: string, documentId: string): Promise<Uint8Array | undefined>;
}
