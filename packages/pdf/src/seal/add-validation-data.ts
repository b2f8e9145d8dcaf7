import { PDFArray, PDFDict, PDFName, type PDFObject, type PDFRef } from 'pdf-lib';
import type * as pkijs from 'pkijs';
import { PdfError } from '../pdf-error.ts';
import { appendRevision, openRevision, type RevisionObject } from './append-revision.ts';
import { embeddedCertificates, isSelfSigned, issuerOf, subjectText, uniqueCertificates } from './embedded-certificates.ts';
import { derOf } from './fetch-ocsp.ts';
import { revocationEvidence } from './revocation-evidence.ts';

export type ValidationDataOptions = { readonly timeoutMs?: number };

/**
 * PAdES B-T → B-LT: one incremental update adding a Document Security Store (ETSI EN 319 142-1
 * §5.4.2: /DSS with /Certs, /OCSPs and /CRLs streams) to the catalog, holding every certificate
 * the signatures and their timestamps carry, the revocation data about each (an OCSP response
 * from the responder it names, else its issuer's CRL: revocationEvidence), and the OCSP
 * responders' certificates. A root (self-signed) needs no revocation data; any other
 * certificate without proof of being unrevoked is VALIDATION_DATA_FAILED and the file is left
 * as it was. An existing DSS (a renewal) is kept and added to; a CRL several certificates share
 * is stored once.
 */
export async function addValidationData(pdf: Uint8Array, options: ValidationDataOptions = {}): Promise<Uint8Array> {
  const certificates = embeddedCertificates(pdf);
  if (certificates.length === 0) throw new PdfError('VALIDATION_DATA_FAILED', 'The PDF has no signature certificates.');
  const ocsps: Uint8Array[] = [];
  const crls = new Map<string, Uint8Array>();
  const responders: pkijs.Certificate[] = [];
  for (const cert of certificates) {
    if (isSelfSigned(cert)) continue;
    const issuer = await issuerOf(cert, certificates);
    if (!issuer) throw new PdfError('VALIDATION_DATA_FAILED', `The chain of "${subjectText(cert)}" is incomplete: its issuer is not in the signature.`);
    const evidence = await revocationEvidence(cert, issuer, options.timeoutMs);
    if (evidence.kind === 'crl') {
      crls.set(Buffer.from(evidence.der).toString('base64'), evidence.der);
    } else {
      ocsps.push(evidence.der);
      responders.push(...evidence.certificates);
    }
  }
  const allCerts = uniqueCertificates([...certificates, ...responders]).map(derOf);

  const revision = await openRevision(pdf);
  const { doc, catalog, rootRef } = revision;
  const ctx = doc.context;
  const objects: RevisionObject[] = [];
  const streamRefs = (blobs: readonly Uint8Array[]): PDFRef[] => blobs.map((bytes) => {
    const stream = ctx.flateStream(bytes);
    const ref = ctx.register(stream);
    objects.push({ ref, object: stream });
    return ref;
  });
  const existing = catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  const merged = (key: string, refs: PDFRef[]): PDFArray => {
    const array = ctx.obj([]);
    const previous = existing?.lookupMaybe(PDFName.of(key), PDFArray);
    for (let i = 0; i < (previous?.size() ?? 0); i++) array.push(previous?.get(i) as PDFObject);
    for (const ref of refs) array.push(ref);
    return array;
  };
  const dss = ctx.obj({ Type: 'DSS' });
  dss.set(PDFName.of('Certs'), merged('Certs', streamRefs(allCerts)));
  if (ocsps.length > 0 || existing?.has(PDFName.of('OCSPs'))) dss.set(PDFName.of('OCSPs'), merged('OCSPs', streamRefs(ocsps)));
  if (crls.size > 0 || existing?.has(PDFName.of('CRLs'))) dss.set(PDFName.of('CRLs'), merged('CRLs', streamRefs([...crls.values()])));
  const dssRef = ctx.register(dss);
  objects.push({ ref: dssRef, object: dss });
  catalog.set(PDFName.of('DSS'), dssRef);
  objects.push({ ref: rootRef, object: catalog });
  return appendRevision(pdf, revision, objects);
}
