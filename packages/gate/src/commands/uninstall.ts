import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import { printChanges, readTargets } from './install.js';
import type { TargetChange } from './install.js';

const HELP = `Usage: holdfast uninstall <claude-code|codex|gemini-cli|qwen-code|opencode|copilot-cli|git>... [--json]

Removes the gate that \`holdfast install\` wrote, and only that: other hooks and settings in
.claude/settings.json, .codex/hooks.json, .gemini/settings.json, .qwen/settings.json, .opencode/, .github/hooks/holdfast.json and the pre-commit hook are kept as they are. The git
pre-commit gate and the .holdfast/ line in .git/info/exclude go too when \`git\` is named, or when
no agent gate of holdfast's is left in the project; then .holdfast/ (the gate's state in this clone)
goes as well, and a .claude/, .codex/ or .github/hooks/ folder left empty. The sealed copies of the state outside the
project (~/.local/state/holdfast/, the audit log among them) are kept. Trust recorded in ~/.codex/config.toml stays
(it names a hook that no longer exists, so Codex ignores it).

Options:
  --json      print the changes as JSON
  -h, --help  this help`;

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('uninstall', args, {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    const targets = readTargets('uninstall', positionals);
    const { hasAgentGate, isGitRepository, removeProjectState, uninstallExclude, uninstallGate } = await import('../install/install.js');
    const changes: TargetChange[] = targets.filter((target) => target !== 'git').map((target) => ({ target, ...uninstallGate(target, io.cwd) }));
    const agentsLeft =
      hasAgentGate('claude-code', io.cwd) ||
      hasAgentGate('codex', io.cwd) ||
      hasAgentGate('gemini-cli', io.cwd) ||
      hasAgentGate('qwen-code', io.cwd) ||
      hasAgentGate('opencode', io.cwd) ||
      hasAgentGate('copilot-cli', io.cwd);
    if (isGitRepository(io.cwd) && (targets.includes('git') || !agentsLeft)) {
      changes.push({ target: 'git', ...uninstallGate('git', io.cwd) });
      changes.push({ target: 'exclude', ...uninstallExclude(io.cwd) });
    }
    (await import('../state/guarded-baseline.js')).refreshGuardedBaseline(resolve(io.cwd));
    // No gate left: the repository goes back to how install found it.
    if (!agentsLeft) changes.push({ target: 'state', ...removeProjectState(io.cwd) });
    printChanges(io, changes, values.json === true);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    throw error;
  }
}
