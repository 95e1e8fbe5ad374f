#!/usr/bin/env node
// Writes runs/demo/replies.json (a link to packages/lab/runs/demo/replies.json, which the lab ships): the hand-written replies the shipped demo run replays. They are NOT
// outputs of a real model. The answers are data (fixtures/demo-replies/: answers.json, plan.json and
// the written files under files/); the typed generator is src/experiment/demo-replies-generator.ts,
// run here from dist/ (`npm run build` first).
//
//   node scripts/generate-demo-replies.mjs          rewrite the file
//   node scripts/generate-demo-replies.mjs --check  exit 1 if the file is not what the generator writes

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { demoRepliesText } from '../packages/lab/dist/experiment/demo-replies-generator.js';

const OUTPUT = fileURLToPath(new URL('../packages/lab/runs/demo/replies.json', import.meta.url));
const text = demoRepliesText(fileURLToPath(new URL('../fixtures/demo-replies', import.meta.url)));
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUTPUT, 'utf8');
  } catch {
    current = '';
  }
  if (current !== text) {
    process.stderr.write('runs/demo/replies.json is not what scripts/generate-demo-replies.mjs writes; run it again.\n');
    process.exit(1);
  }
} else {
  writeFileSync(OUTPUT, text);
}
