#!/usr/bin/env node
// The `vitae` bin: registers tsx so the TypeScript sources run as they are, then starts the CLI.
// tsconfig is named explicitly because `npx vitae` / `npm link` may run from any working directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('./main.ts');
