import { BUBBLEWRAP_HINT, EXEC_MARKER, findBubblewrap } from './containment.js';

/** One doctor line about the containment layer (same shape as DoctorCheck, area `containment`). */
export interface ContainmentCheck {
  readonly area: 'containment';
  readonly ok: boolean;
  readonly what: string;
  readonly fix?: string;
  readonly advisory?: boolean;
}

/**
 * Which containment is in force: whether bubblewrap is there for `holdfast exec`, and whether this
 * very session runs under it (the marker exec sets inside its sandbox). Advisory: the hook and git
 * layers hold without it, with the weaker guarantee doctor names.
 */
export function containmentChecks(env: NodeJS.ProcessEnv): ContainmentCheck[] {
  const bwrap = findBubblewrap(env);
  const underExec = env[EXEC_MARKER] === '1';
  return [
    bwrap === undefined
      ? {
          area: 'containment',
          ok: true,
          advisory: true,
          what: 'bubblewrap is not installed: `holdfast exec` refuses (or runs --weaker), so an agent can write the gate, its state and your git config, and what it detaches outlives it',
          fix: BUBBLEWRAP_HINT,
        }
      : { area: 'containment', ok: true, what: `bubblewrap is available (${bwrap}): \`holdfast exec -- AGENT\` confines an agent` },
    underExec
      ? { area: 'containment', ok: true, what: 'this session runs under holdfast exec: the gate, .holdfast/ and git hooks are read-only to it' }
      : {
          area: 'containment',
          ok: true,
          advisory: true,
          what: 'this session does not run under holdfast exec: only the hook and git layers hold (start the agent with `holdfast exec -- AGENT`)',
        },
  ];
}
