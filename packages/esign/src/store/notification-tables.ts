import type { Migration } from './migrations.ts';

/**
 * Reminders and expiration (issue 11): the schema steps for envelope notification settings and
 * their schedule, versions 30-39 (this file owns that range). Registered in migrations.ts;
 * the steps are added with the feature.
 */
export const NOTIFICATION_MIGRATIONS: readonly Migration[] = [];
