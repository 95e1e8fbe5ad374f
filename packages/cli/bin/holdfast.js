#!/usr/bin/env node
import { exitQuietlyOnClosedPipe, main } from '../dist/main.js';

exitQuietlyOnClosedPipe(process.stdout, (code) => process.exit(code));
exitQuietlyOnClosedPipe(process.stderr, (code) => process.exit(code));
process.exitCode = await main(process.argv.slice(2));
