#!/usr/bin/env node
// Launcher for the npm `bin` and `npx calendar-engine`: loads TypeScript through tsx, then runs
// src/cli/main.ts. Works from a clone (no build step).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
await runCli(process.argv.slice(2));
