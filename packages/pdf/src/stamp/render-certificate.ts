import { loadFontkit } from './load-fontkit.ts';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { safeText } from './safe-text.ts';
import { loadUnicodeFont } from './unicode-font.ts';

type When = Date | string;

/** Everything the certificate shows; plain data, no envelope types. */
export type CertificateData = {
  envelopeId: string;
  subject?: string;
  status?: string;
  sender?: { name: string; email: string };
  sentAt?: When;
  completedAt?: When;
  signers: {
    name: string; email: string; status?: string; routingOrder?: number | string; ipAddress?: string; signedAt?: When;
    /** The signer's tab values (form fields they filled or the service filled for them), label and value. */
    tabValues?: { label: string; value: string }[];
  }[];
  carbonCopies?: { name: string; email: string }[];
  /** Recipients who signed nothing but had to view and acknowledge the documents (certified delivery). */
  certifiedDeliveries?: { name: string; email: string; routingOrder?: number | string; ipAddress?: string; acknowledgedAt?: When }[];
  events: { at: When; event: string; actor?: string; ipAddress?: string; userAgent?: string }[];
  documents: { name: string; sha256: string; pages?: number }[];
  /** Printed in the footer; default now. */
  generatedAt?: Date;
  /** The certificate's own words and time format, in the envelope's language; default English. */
  labels?: CertificateLabels;
};

/**
 * Every word the certificate prints of its own, and how it prints a time: the caller
 * translates (esign keeps the catalogs). The values it prints (names, e-mails, hashes, audit
 * events) are the data's.
 */
export type CertificateLabels = {
  title: string; envelopeId: string; subject: string; status: string; sender: string; sent: string; completed: string;
  signers: string; signer: string; routingOrder: string; ipAddress: string; signed: string; tabValues: string;
  carbonCopies: string; copyTo: string; documents: string; document: string; sha256: string; events: string;
  certifiedDeliveries: string; deliveredTo: string; acknowledged: string;
  /** "3 pages": the count with its noun, by the language's plural rules. */
  pages(count: number): string;
  /** "IP 198.51.100.23" in an event line. */
  ip(address: string): string;
  footer(envelopeId: string, generatedAt: string): string;
  /** A point in time as the certificate prints it. */
  time(at: Date): string;
};

/** The English words, and times as ISO 8601 in UTC ("2026-03-07 12:00:00 UTC"). */
export const ENGLISH_CERTIFICATE_LABELS: CertificateLabels = {
  title: 'Certificate of Completion', envelopeId: 'Envelope Id:', subject: 'Subject:', status: 'Status:', sender: 'Sender:', sent: 'Sent:', completed: 'Completed:',
  signers: 'Signers', signer: 'Signer:', routingOrder: 'Routing order:', ipAddress: 'IP address:', signed: 'Signed:', tabValues: 'Tab values:',
  carbonCopies: 'Carbon copies', copyTo: 'Copy to:', documents: 'Documents', document: 'Document:', sha256: 'SHA-256:', events: 'Events',
  certifiedDeliveries: 'Certified deliveries', deliveredTo: 'Delivered to:', acknowledged: 'Acknowledged:',
  pages: (n) => `${n} page${n === 1 ? '' : 's'}`,
  ip: (address) => `IP ${address}`,
  footer: (envelopeId, generatedAt) => `Certificate of Completion - envelope ${envelopeId} - generated ${generatedAt}`,
  time: (at) => at.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC'),
};

const PAGE = { width: 612, height: 792 };
const MARGIN = 54;
const WIDTH = PAGE.width - 2 * MARGIN;

function whenIn(labels: CertificateLabels): (v: When | undefined) => string {
  return (v) => {
    if (v === undefined) return '-';
    const d = typeof v === 'string' ? new Date(v) : v;
    return Number.isNaN(d.getTime()) ? String(v) : labels.time(d);
  };
}

/** Text flow over as many Letter pages as it takes, with a running footer. */
class Flow {
  readonly #pdf: PDFDocument;
  readonly #font: PDFFont;
  readonly #bold: PDFFont;
  readonly #footer: string;
  #page!: PDFPage;
  #y = 0;
  /** Some text had characters the fonts lack (printed as `?`). */
  lossy = false;

  constructor(pdf: PDFDocument, font: PDFFont, bold: PDFFont, footer: string) {
    this.#pdf = pdf;
    this.#font = font;
    this.#bold = bold;
    this.#footer = footer;
    this.#newPage();
  }

  #safe(font: PDFFont, text: string): string {
    return safeText(font, text, () => {
      this.lossy = true;
    });
  }

  #newPage(): void {
    this.#page = this.#pdf.addPage([PAGE.width, PAGE.height]);
    this.#y = PAGE.height - MARGIN;
    this.#page.drawText(this.#safe(this.#font, this.#footer), { x: MARGIN, y: MARGIN / 2, size: 7, font: this.#font, color: rgb(0.4, 0.4, 0.4) });
  }

  #room(h: number): void {
    if (this.#y - h < MARGIN) this.#newPage();
  }

  /** Splits text into lines no wider than `width`, breaking long tokens (hashes, user agents) too. */
  #wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let n = rest.length;
        while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
        lines.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      line = rest;
    }
    if (line) lines.push(line);
    return lines;
  }

  heading(text: string, size = 12): void {
    this.gap(6);
    this.#room(size + 6);
    this.#y -= size;
    this.#page.drawText(this.#safe(this.#bold, text), { x: MARGIN, y: this.#y, size, font: this.#bold });
    this.#y -= 6;
  }

  /** A "label: value" line, wrapped under the value's column. */
  field(label: string, value: string, size = 9, indent = 0): void {
    const labelWidth = 110;
    const lines = this.#wrap(this.#safe(this.#font, value), this.#font, size, WIDTH - labelWidth - indent);
    for (const [i, line] of (lines.length > 0 ? lines : ['']).entries()) {
      this.#room(size + 3);
      this.#y -= size + 3;
      if (i === 0) this.#page.drawText(this.#safe(this.#bold, label), { x: MARGIN + indent, y: this.#y, size, font: this.#bold });
      this.#page.drawText(line, { x: MARGIN + indent + labelWidth, y: this.#y, size, font: this.#font });
    }
  }

  text(value: string, size = 9, indent = 0): void {
    for (const line of this.#wrap(this.#safe(this.#font, value), this.#font, size, WIDTH - indent)) {
      this.#room(size + 3);
      this.#y -= size + 3;
      this.#page.drawText(line, { x: MARGIN + indent, y: this.#y, size, font: this.#font });
    }
  }

  gap(h: number): void {
    this.#y -= h;
  }
}

/**
 * The certificate of completion as its own PDF (one or more Letter pages): envelope, signers
 * with e-mail, IP and time, every audit event, and each document's SHA-256 so a reader can
 * check the documents against it. Append it to the combined PDF before sealing.
 */
export async function renderCertificate(data: CertificateData): Promise<Uint8Array> {
  const latin = await render(data, undefined);
  // Text in another script (a Japanese certificate, a name in Cyrillic or kanji): laid out again
  // in the Unicode font when it is installed, else kept, with `?` for what Helvetica lacks. Only
  // the layout kept is saved.
  const unicode = latin.lossy ? await loadUnicodeFont() : undefined;
  return (unicode === undefined ? latin : await render(data, unicode)).pdf.save();
}

async function render(data: CertificateData, unicodeFont: Uint8Array | undefined): Promise<{ pdf: PDFDocument; lossy: boolean }> {
  const pdf = await PDFDocument.create();
  const l = data.labels ?? ENGLISH_CERTIFICATE_LABELS;
  const when = whenIn(l);
  pdf.setTitle(`${l.title} ${data.envelopeId}`);
  pdf.setProducer('Signet');
  let font: PDFFont;
  let bold: PDFFont;
  if (unicodeFont === undefined) {
    font = await pdf.embedFont(StandardFonts.Helvetica);
    bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  } else {
    pdf.registerFontkit(await loadFontkit());
    // One weight: IPAGothic has no bold face; headings keep their larger size.
    font = bold = await pdf.embedFont(unicodeFont, { subset: true });
  }
  const generatedAt = data.generatedAt ?? new Date();
  const flow = new Flow(pdf, font, bold, l.footer(data.envelopeId, when(generatedAt)));

  flow.heading(l.title, 18);
  flow.field(l.envelopeId, data.envelopeId);
  if (data.subject) flow.field(l.subject, data.subject);
  flow.field(l.status, data.status ?? 'completed');
  if (data.sender) flow.field(l.sender, `${data.sender.name} <${data.sender.email}>`);
  flow.field(l.sent, when(data.sentAt));
  flow.field(l.completed, when(data.completedAt));

  flow.heading(l.signers);
  for (const s of data.signers) {
    flow.field(l.signer, `${s.name} <${s.email}>`);
    flow.field(l.status, s.status ?? 'completed', 9, 12);
    if (s.routingOrder !== undefined) flow.field(l.routingOrder, String(s.routingOrder), 9, 12);
    flow.field(l.ipAddress, s.ipAddress ?? '-', 9, 12);
    flow.field(l.signed, when(s.signedAt), 9, 12);
    if (s.tabValues?.length) {
      flow.field(l.tabValues, '', 9, 12);
      // One wrapped line each: a label may be long (DocuSign allows 500 characters).
      for (const t of s.tabValues) flow.text(`${t.label}: ${t.value}`, 8, 24);
    }
    flow.gap(4);
  }
  if (data.certifiedDeliveries?.length) {
    flow.heading(l.certifiedDeliveries);
    for (const c of data.certifiedDeliveries) {
      flow.field(l.deliveredTo, `${c.name} <${c.email}>`);
      if (c.routingOrder !== undefined) flow.field(l.routingOrder, String(c.routingOrder), 9, 12);
      flow.field(l.ipAddress, c.ipAddress ?? '-', 9, 12);
      flow.field(l.acknowledged, when(c.acknowledgedAt), 9, 12);
      flow.gap(4);
    }
  }
  if (data.carbonCopies?.length) {
    flow.heading(l.carbonCopies);
    for (const c of data.carbonCopies) flow.field(l.copyTo, `${c.name} <${c.email}>`);
  }

  flow.heading(l.documents);
  for (const d of data.documents) {
    flow.field(l.document, d.pages !== undefined ? `${d.name} (${l.pages(d.pages)})` : d.name);
    flow.field(l.sha256, d.sha256, 8, 12);
  }

  flow.heading(l.events);
  for (const e of data.events) {
    const who = [e.actor, e.ipAddress && l.ip(e.ipAddress)].filter(Boolean).join(', ');
    flow.field(when(e.at), who ? `${e.event} - ${who}` : e.event, 8);
    if (e.userAgent) flow.text(e.userAgent, 7, 110);
  }
  return { pdf, lossy: flow.lossy };
}
