import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EsignContext } from '../context.ts';
import type { RetryPolicy } from '../mail/retry-delay.ts';
import type { ConnectRepository } from '../store/connect-repository.ts';
import type { Repositories } from '../store/repositories.ts';
import { buildCheckListener, type CheckListener } from './check-listener.ts';
import { ConnectDeliveryWorker, type ConnectWorkerOptions } from './connect-delivery-worker.ts';
import type { ResolveHost } from './guarded-lookup.ts';
import type { ListenerPolicy } from './listener-address-policy.ts';
import { loadSecretKey } from './load-secret-key.ts';
import { buildPostToListener } from './post-to-listener.ts';
import { SecretBox } from './secret-box.ts';

/** Worker tuning and test seams. */
export type ConnectModuleOptions = {
  worker?: { pollIntervalMs?: number; retry?: RetryPolicy; timeoutMs?: number; leaseMs?: number; batchSize?: number; clock?: () => Date };
  /** DNS for the configuration-time check (tests resolve names without a DNS server). */
  resolveHost?: ResolveHost;
};

/** What the rest of the server uses of Connect. */
export type ConnectModule = {
  readonly repository: ConnectRepository;
  readonly secrets: SecretBox;
  readonly checkListener: CheckListener;
  readonly policy: ListenerPolicy;
  readonly worker: ConnectDeliveryWorker;
};

/**
 * Connect's parts, built once by server.ts: the listener policy and its configuration-time SSRF
 * check, the HMAC key box, and the delivery worker (one per instance; not started here).
 */
export function buildConnect(
  ctx: EsignContext,
  repositories: Pick<Repositories, 'connect' | 'envelopes' | 'signing'>,
  options: ConnectModuleOptions & { onError: ConnectWorkerOptions['onError'] },
): ConnectModule {
  const policy: ListenerPolicy = { allowHttp: ctx.config.connectAllowHttp, allowPrivate: ctx.config.connectAllowPrivate };
  // The envelopes repository only for the documents' bytes (includeDocuments).
  const { connect: repository, envelopes: documents, signing } = repositories;
  const secrets = new SecretBox(loadSecretKey(ctx.config.connectSecretKey, ctx.config.dataDir));
  const worker = new ConnectDeliveryWorker({
    queue: repository,
    hmacSecrets: async (accountId) => (await repository.activeSealedSecrets(accountId)).map((sealed) => secrets.open(sealed)),
    post: buildPostToListener(policy),
    documentBytes: async (accountId, envelopeId, documentId, signed) =>
      (signed ? await signing.signedDocument(envelopeId, documentId) : undefined) ?? (await documents.documentPdf(accountId, envelopeId, documentId)),
    // Several instances share one outbox; the id fences each one's claims.
    workerId: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    ...options.worker,
    onError: options.onError,
  });
  return { repository, secrets, checkListener: buildCheckListener(policy, options.resolveHost), policy, worker };
}
