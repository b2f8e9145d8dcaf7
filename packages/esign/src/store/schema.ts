import type { ConnectTables } from './connect-tables.ts';
import type { EnvelopeTables } from './envelope-tables.ts';
import type { EvidenceTables } from './evidence-tables.ts';
import type { NotificationTables } from './notification-tables.ts';
import type { SigningTables } from './signing-tables.ts';
import type { TemplateTables } from './template-tables.ts';
import type { WorkflowTables } from './workflow-tables.ts';
import type { AccessCodeTables } from './access-code-tables.ts';
import type { AccountViewTables } from './account-view-tables.ts';
import type { PasscodeTables } from './passcode-tables.ts';
import type { BrandTables } from './brand-tables.ts';
import type { AccountSettingsTables } from './account-settings-tables.ts';
import type { BulkSendTables } from './bulk-send-tables.ts';
import type { UserAdminTables } from './user-admin-tables.ts';
import type { AccountCustomFieldTables } from './account-custom-field-tables.ts';
import type { UserAuthorizationTables } from './user-authorization-tables.ts';
import type { SendAllowanceTables } from './send-allowance.ts';
import type { ApiUsageTables } from './api-usage-repository.ts';

/**
 * Table shapes, identical on SQLite and PostgreSQL. Timestamps are ISO-8601 UTC text (always
 * 24 characters, so they compare as text on both engines); flags are 0/1 integers. That keeps
 * the two drivers' type mappings out of the repositories (pg returns int8 as a string, and
 * booleans come back differently from each driver).
 */
export type AccountRow = { id: string; name: string; created_at: string };
export type UserRow = { id: string; email: string; name: string; password_hash: string; created_at: string };
/**
 * is_admin: the member who opened the account (store/account-settings-tables.ts); what a member
 * may do is their permission profile's (store/user-admin-tables.ts). status: active, pending
 * (invited, the link not used yet) or closed (removed).
 */
export type MembershipRow = {
  user_id: string; account_id: string; is_default: number; is_admin: number; created_at: string;
  status: string; permission_profile_id: string | null; closed_at: string | null;
};
export type AppRow = { id: string; account_id: string; owner_user_id: string; name: string; created_at: string };
export type AppSecretRow = { id: string; app_id: string; secret_hash: string; hint: string; created_at: string; revoked_at: string | null };
export type AppRedirectUriRow = { app_id: string; uri: string; created_at: string };
export type AppRsaKeyRow = { id: string; app_id: string; public_key_pem: string; created_at: string; revoked_at: string | null };
export type SessionRow = { id_hash: string; user_id: string; created_at: string; expires_at: string };
export type ConsentRow = { user_id: string; app_id: string; scopes: string; created_at: string };
export type AuthCodeRow = {
  code_hash: string;
  app_id: string;
  user_id: string;
  grant_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  expires_at: string;
  consumed_at: string | null;
  created_at: string;
};
export type TokenRow = {
  token_hash: string;
  kind: 'access' | 'refresh';
  app_id: string;
  user_id: string;
  grant_id: string;
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
};
export type LoginFailureRow = { email: string; failures: number; first_failed_at: string; locked_until: string | null };
export type JwtAssertionRow = { app_id: string; jti: string; expires_at: string };
export type SignupRequestRow = { token_hash: string; email: string; name: string; password_hash: string | null; created_at: string; expires_at: string; consumed_at: string | null };
export type MigrationRow = { version: number; name: string; applied_at: string };

/** The whole database as Kysely sees it: every table, the feature tables from their own files. */
export type Database = EnvelopeTables & EvidenceTables & SigningTables & ConnectTables & NotificationTables & TemplateTables & WorkflowTables & AccessCodeTables & AccountViewTables & PasscodeTables & BrandTables & AccountSettingsTables & BulkSendTables & UserAdminTables & AccountCustomFieldTables & UserAuthorizationTables & SendAllowanceTables & ApiUsageTables & {
  accounts: AccountRow;
  users: UserRow;
  memberships: MembershipRow;
  apps: AppRow;
  app_secrets: AppSecretRow;
  app_redirect_uris: AppRedirectUriRow;
  app_rsa_keys: AppRsaKeyRow;
  sessions: SessionRow;
  consents: ConsentRow;
  auth_codes: AuthCodeRow;
  tokens: TokenRow;
  login_failures: LoginFailureRow;
  jwt_assertions: JwtAssertionRow;
  signup_requests: SignupRequestRow;
  signet_migrations: MigrationRow;
};
