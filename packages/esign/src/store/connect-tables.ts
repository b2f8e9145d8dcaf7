import type { Migration } from './migrations.ts';

/**
 * Connect (event notifications, issue 11): its tables and their schema steps, versions 20-29
 * (this file owns that range). Registered in migrations.ts; the steps are added with the
 * feature.
 */
export const CONNECT_MIGRATIONS: readonly Migration[] = [];
