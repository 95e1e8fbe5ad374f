'use strict';
// Run by `npm run build` after bundling the hook: loads dist/hook/decide.cjs the way the installed
// command does, runs sample decisions of every kind (writes clean and refused, edits, read-only and
// unknown shell commands, a test run, a commit, the calls after them, the turn's end, Codex's tools)
// in a throwaway git repository, then writes V8's code for everything they compiled to
// dist/hook/decide.cjs.v8cache. A hook process that loads it starts with those functions compiled.
const { execFileSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Readable } = require('node:stream');
const { loadDecide, cacheFile } = require('../dist/hook/hook.cjs');

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-warm-'));
  try {
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 1;\n');
    const git = (...args) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.email=warm@holdfast.invalid', '-c', 'user.name=warm', 'commit', '-q', '--allow-empty', '-m', 'start');
    const { exports: decide, script } = loadDecide(undefined);
    const env = { ...process.env, HOME: root };
    let call = 0;
    const hook = async (agent, event, fields) => {
      call += 1;
      const payload = { session_id: 'warm', cwd: root, hook_event_name: event, tool_use_id: `warm_${call}`, ...fields };
      await decide.runHookProcess([agent, '--deadline-ms', '60000'], { stdin: Readable.from([JSON.stringify(payload)]), cwd: root, env });
    };
    const bash = async (command) => {
      await hook('claude-code', 'PreToolUse', { tool_name: 'Bash', tool_input: { command } });
      await hook('claude-code', 'PostToolUse', { tool_name: 'Bash', tool_input: { command }, tool_response: { stdout: '', stderr: '' } });
    };
    await hook('claude-code', 'PreToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: join(root, 'src', 'orders.ts'), content: 'export const orders = () => [];\n' },
    });
    writeFileSync(join(root, 'src', 'orders.ts'), 'export const orders = () => [];\n');
    await hook('claude-code', 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: join(root, 'src', 'debug.ts'), content: "console.log('x');\n" } });
    await hook('claude-code', 'PreToolUse', {
      tool_name: 'Edit',
      tool_input: { file_path: join(root, 'src', 'cart.ts'), old_string: 'total = 1', new_string: 'total = 2' },
    });
    await bash('git status --short && ls src');
    await bash('npm test -- --run src/orders.test.ts');
    await bash('git add -A && git commit -m orders');
    await hook('claude-code', 'Stop', { stop_hook_active: false });
    await hook('codex', 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'cat src/cart.ts' } });
    const patch = '*** Begin Patch\n*** Add File: src/codex.ts\n+export const codex = 1;\n*** End Patch\n';
    await hook('codex', 'PreToolUse', { tool_name: 'apply_patch', tool_input: { command: patch } });
    // The sample decisions ran rulebook patterns on V8's linear engine, which switched a V8 option on
    // (src/rules/linear-engine.ts). V8 stamps a cache with its options and refuses it in a process
    // whose options differ: a hook process loads decide.cjs before any pattern runs, so without it.
    require('node:v8').setFlagsFromString('--no-enable-experimental-regexp-engine');
    writeFileSync(cacheFile, script.createCachedData());
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`warm-hook-cache: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
