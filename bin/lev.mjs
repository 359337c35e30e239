#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx lev` needs no build step.
import { register } from 'tsx/esm/api';
register();
await import('./lev.ts');
