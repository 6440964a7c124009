#!/usr/bin/env node
// The `switchboard` command: runs the built CLI (`pnpm build` first when working from source).
import '../dist/cli.js';
