import { createHash, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { Signer } from '@signpdf/utils';
import { arrayBufferOf } from './array-buffer-of.ts';
import type { SealKey } from './read-seal-p12.ts';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
} as const;

/**
 * The seal's CMS as PAdES baseline B-B asks (ETSI EN 319 142-1 §6.3, with EN 319 122-1 for the
 * CMS): signed attributes content-type, message-digest and ESS signing-certificate-v2 (RFC 5035:
 * the SHA-256 of the seal certificate and its issuer and serial, binding the signature to that
 * certificate so another one with the same key cannot be substituted), and no signing-time: the
 * claimed time is the signature dictionary's /M. The chain is carried in `certificates`.
 */
export class CadesSigner extends Signer {
  readonly #seal: SealKey;

  constructor(seal: SealKey) {
    super();
    this.#seal = seal;
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- @signpdf's Signer contract is async.
  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const { certificate, certificateDer, chain, key } = this.#seal;
    const attribute = (type: string, value: asn1js.AsnType) => new pkijs.Attribute({ type, values: [value] });
    const issuerSerial = new asn1js.Sequence({ value: [
      // GeneralNames holding one directoryName ([4], explicit: Name is a CHOICE).
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [certificate.issuer.toSchema()] })] }),
      certificate.serialNumber,
    ] });
    // ESSCertIDv2 with hashAlgorithm left at its DEFAULT (SHA-256), so it is omitted (DER).
    const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: arrayBufferOf(createHash('sha256').update(certificateDer).digest()) }), issuerSerial] });
    const attributes = [
      attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
      attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: arrayBufferOf(createHash('sha256').update(pdfBuffer).digest()) })),
      attribute(OID.signingCertificateV2, new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })),
    ];
    // DER sorts a SET OF by the elements' encodings; the signature is over that SET (tag 0x31),
    // and the [0] IMPLICIT copy in the SignerInfo must list them in the same order.
    const encoded = attributes.map((a) => ({ a, der: Buffer.from(a.toSchema().toBER(false)) }));
    encoded.sort((x, y) => Buffer.compare(x.der, y.der));
    const sorted = encoded.map((e) => e.a);
    const signedSet = Buffer.from(new asn1js.Set({ value: sorted.map((a) => a.toSchema()) }).toBER(false));
    const signature = sign('sha256', signedSet, key);

    const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 });
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
      digestAlgorithm: sha256(),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sorted }),
      signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() }),
      signature: new asn1js.OctetString({ valueHex: arrayBufferOf(signature) }),
    });
    const signedData = new pkijs.SignedData({
      version: 1,
      digestAlgorithms: [sha256()],
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates: chain,
      signerInfos: [signerInfo],
    });
    const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return Buffer.from(contentInfo.toSchema().toBER(false));
  }
}
