#!/usr/bin/env node
// The package bin: TypeScript runs through tsx (no build step), then the CLI takes over.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
