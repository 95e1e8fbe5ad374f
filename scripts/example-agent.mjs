#!/usr/bin/env node
// Writes runs/example-agent.jsonl: an agent-mode run (`holdfast run --mode agent`) whose three
// agents are SCRIPTED programs (runs/demo/agents/scripted-agent.mjs), not models: a careful one,
// one that breaks R4, is blocked by the gate and recovers, and one that goes round the gate with
// `git commit --no-verify`. Every arm really runs in its own git repository with the gate
// installed; the figures are measured, only the agents are scripted. Needs `npm run build`.
//
//   npm run example:agent

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'runs', 'example-agent.jsonl');
const AGENT = join(ROOT, 'runs', 'demo', 'agents', 'scripted-agent.mjs');
const BEHAVIOURS = { 'demo-agent-careful': 'careful', 'demo-agent-recovers': 'recover', 'demo-agent-evades': 'evade' };
const DEMO =
  'Scripted agents, not models: each target is runs/demo/agents/scripted-agent.mjs playing a fixed part (careful, recovers, evades). ' +
  'The repositories, the gate and every figure are real; the agents are not outputs of a real model.';

// The config names the script by absolute path (an arm runs in its own repository), so it is written for this checkout.
const dir = mkdtempSync(join(tmpdir(), 'holdfast-example-agent-'));
try {
  const targets = Object.entries(BEHAVIOURS).map(
    ([id, behaviour]) =>
      `  - id: ${id}\n    provider: agent\n    model: scripted (${behaviour})\n    command: [node, ${JSON.stringify(AGENT)}, ${behaviour}]\n    maxTurns: 5\n    timeoutMs: 120000\n`,
  );
  writeFileSync(join(dir, 'holdfast.config.yaml'), `version: 1\ntargets:\n${targets.join('')}`);
  rmSync(OUT, { force: true });
  const args = [
    join(ROOT, 'packages', 'cli', 'bin', 'holdfast.js'),
    'run',
    '--mode',
    'agent',
    '--targets',
    Object.keys(BEHAVIOURS).join(','),
    '--tasks',
    'debug-checkout-logging',
    '--concurrency',
    '1',
    '--out',
    OUT,
    '--demo',
    DEMO,
  ];
  const result = spawnSync(process.execPath, args, { cwd: dir, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
