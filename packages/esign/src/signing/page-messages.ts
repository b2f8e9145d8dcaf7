import type { TabOnPage } from '../domain/tabs/tab-on-page.ts';
import type { Translator } from '../i18n/translator.ts';
import { MAX_ATTACHMENT_BYTES } from './parse-finish-form.ts';
import type { SupplementOnPage } from './supplement-strip.ts';

/**
 * What the signing page's script (signing-script.ts) says, in the recipient's language, as data
 * (`#page-messages`): whole messages formatted here by the catalogs, never words the script
 * strings together. A count's message is given for every count this page can reach (`fields[n]`
 * for n fields to correct, `signatures[n]` for n of the required signatures left, ...), so plural
 * rules stay the catalog's (ICU, intl-messageformat) and the browser's Intl data plays no part.
 */
export type PageMessages = {
  readonly signed: string;
  readonly allSet: string;
  readonly separator: string;
  readonly typeName: string;
  readonly drawFirst: string;
  readonly fileTooLarge: string;
  readonly fileKind: string;
  readonly fields: readonly string[];
  readonly signatures: readonly string[];
  readonly toView: readonly string[];
  readonly toAttach: readonly string[];
  readonly toAccept: readonly string[];
};

/** n+1 messages: index i is the message for a count of i (index 0 is never shown: nothing is left). */
function upTo(n: number, message: (count: number) => string): string[] {
  return Array.from({ length: n + 1 }, (_, i) => (i === 0 ? '' : message(i)));
}

export function pageMessages(tr: Translator, tabs: readonly TabOnPage[], supplements: readonly SupplementOnPage[]): PageMessages {
  const { t } = tr;
  const count = (type: string, test: (t: TabOnPage) => boolean = () => true) => tabs.filter((x) => x.tab.type === type && test(x)).length;
  const signatures = tabs.filter((x) => (x.tab.type === 'signHere' || x.tab.type === 'initialHere') && x.tab.required).length;
  const views = count('view', (x) => x.tab.type === 'view' && x.tab.requiredRead === true) + supplements.filter((s) => s.due?.view).length;
  return {
    signed: t('script.signed'),
    allSet: t('script.allSet'),
    separator: t('script.separator'),
    typeName: t('script.typeName'),
    drawFirst: t('script.drawFirst'),
    fileTooLarge: t('script.fileTooLarge', { mb: Math.round(MAX_ATTACHMENT_BYTES / 1048576) }),
    fileKind: t('script.fileKind'),
    fields: upTo(tabs.length, (n) => t('script.fields', { count: n })),
    signatures: upTo(signatures, (n) => t('script.signatures', { left: n, total: signatures })),
    toView: upTo(views, (n) => t('script.documentsToView', { count: n })),
    toAttach: upTo(count('signerAttachment'), (n) => t('script.filesToAttach', { count: n })),
    toAccept: upTo(supplements.filter((s) => s.due?.accept).length, (n) => t('script.documentsToAccept', { count: n })),
  };
}
