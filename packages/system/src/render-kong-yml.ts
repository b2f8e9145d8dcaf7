import { parseDocument, YAMLMap, YAMLSeq, Scalar } from 'yaml';

export type RenderOptions = {
  /** One target per esign instance, in this order. */
  esignPorts: readonly number[];
  /** The gateway's certificate for `localhost`, written as block scalars (docs/gateway-config.md, "Entities and defaults"). */
  certPem: string;
  keyPem: string;
  sniNames?: readonly string[];
};

const UPSTREAM = 'esign.upstream';

function blockScalar(pem: string): Scalar {
  // A block scalar cannot hold \r: CRLF PEMs are written with LF (the PEM is unchanged in meaning).
  const text = pem.replace(/\r\n/g, '\n');
  const s = new Scalar(text.endsWith('\n') ? text : `${text}\n`);
  // Kong rejects a PEM that is not a multi-line block scalar (docs/gateway-config.md, "Entities and defaults").
  s.type = Scalar.BLOCK_LITERAL;
  return s;
}

/**
 * The whole system's kong.yml: deploy/kong.yml with its esign targets replaced by the
 * instances actually started and the development certificate added. Comments are kept.
 */
export function renderKongYml(template: string, options: RenderOptions): string {
  const doc = parseDocument(template);
  if (doc.errors.length > 0) throw new Error(`deploy/kong.yml: ${doc.errors[0]?.message}`);
  const upstreams = doc.get('upstreams');
  if (!(upstreams instanceof YAMLSeq)) throw new Error('deploy/kong.yml: no upstreams list');
  const upstream = upstreams.items.find((u): u is YAMLMap => u instanceof YAMLMap && u.get('name') === UPSTREAM);
  if (!upstream) throw new Error(`deploy/kong.yml: no upstream named ${UPSTREAM}`);
  upstream.set('targets', doc.createNode(options.esignPorts.map((port) => ({ target: `127.0.0.1:${port}`, weight: 100 }))));

  const certificate = doc.createNode({ cert: '', key: '', snis: (options.sniNames ?? ['localhost']).map((name) => ({ name })) }) as YAMLMap;
  certificate.set('cert', blockScalar(options.certPem));
  certificate.set('key', blockScalar(options.keyPem));
  doc.set('certificates', doc.createNode([]));
  (doc.get('certificates') as YAMLSeq).add(certificate);
  return doc.toString({ lineWidth: 0 });
}
