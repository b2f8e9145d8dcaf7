import { AccessGrantsRepository } from './access-grants-repository.ts';
import { AccountSettingsRepository } from './account-settings-repository.ts';
import { AccountViewsRepository } from './account-views-repository.ts';
import { AuditEventsRepository } from './audit-events-repository.ts';
import { BrandsRepository } from './brands-repository.ts';
import { BulkSendRepository } from './bulk-send-repository.ts';
import { AccountCustomFieldsRepository } from './account-custom-fields-repository.ts';
import { CompletionFailuresRepository } from './completion-failures-repository.ts';
import { ConnectRepository } from './connect-repository.ts';
import type { Db } from './database.ts';
import { DevMailboxRepository } from './dev-mailbox-repository.ts';
import { EnvelopesRepository, type EnvelopesRepositoryOptions } from './envelopes-repository.ts';
import { EvidenceRepository } from './evidence-repository.ts';
import { NotificationRepository } from './notification-repository.ts';
import { OutboxRepository } from './outbox-repository.ts';
import { SigningRepository } from './signing-repository.ts';
import { TemplatesRepository } from './templates-repository.ts';

/** Every envelope-side repository of one server, built once (server.ts) and handed to the feature modules. */
export type Repositories = {
  readonly envelopes: EnvelopesRepository;
  readonly signing: SigningRepository;
  readonly audit: AuditEventsRepository;
  readonly completionFailures: CompletionFailuresRepository;
  readonly evidence: EvidenceRepository;
  readonly notifications: NotificationRepository;
  readonly connect: ConnectRepository;
  readonly outbox: OutboxRepository;
  readonly devMailbox: DevMailboxRepository;
  readonly templates: TemplatesRepository;
  readonly accessGrants: AccessGrantsRepository;
  readonly accountViews: AccountViewsRepository;
  readonly brands: BrandsRepository;
  readonly accountSettings: AccountSettingsRepository;
  readonly bulkSend: BulkSendRepository;
  readonly accountCustomFields: AccountCustomFieldsRepository;
};

export function buildRepositories(db: Db, envelopes: EnvelopesRepositoryOptions): Repositories {
  return {
    envelopes: new EnvelopesRepository(db, envelopes),
    signing: new SigningRepository(db),
    audit: new AuditEventsRepository(db),
    completionFailures: new CompletionFailuresRepository(db),
    evidence: new EvidenceRepository(db),
    notifications: new NotificationRepository(db),
    connect: new ConnectRepository(db),
    outbox: new OutboxRepository(db),
    devMailbox: new DevMailboxRepository(db),
    templates: new TemplatesRepository(db),
    accessGrants: new AccessGrantsRepository(db),
    accountViews: new AccountViewsRepository(db),
    brands: new BrandsRepository(db),
    accountSettings: new AccountSettingsRepository(db),
    bulkSend: new BulkSendRepository(db, envelopes.sendAllowance),
    accountCustomFields: new AccountCustomFieldsRepository(db),
  };
}
