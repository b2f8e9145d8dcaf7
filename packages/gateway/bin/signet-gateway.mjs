#!/usr/bin/env node
// The `signet-gateway` command: no build step, so register tsx and load the TypeScript CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
