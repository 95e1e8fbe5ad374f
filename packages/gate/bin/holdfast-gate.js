#!/usr/bin/env node
import { exitQuietlyOnClosedPipe, processIo } from '@holdfast/core/command';
import { main } from '../dist/entry/command.js';

exitQuietlyOnClosedPipe(process.stdout, (code) => process.exit(code));
exitQuietlyOnClosedPipe(process.stderr, (code) => process.exit(code));
process.exitCode = await main(process.argv.slice(2), processIo());
