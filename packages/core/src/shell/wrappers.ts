import type { Field } from './shell-word.js';

/** How a wrapper program reads its own options before the command it runs. */
interface WrapperSpec {
  /** Short options that take a value (stuck or the next word). */
  readonly values: string;
  /** Short options whose value is optional and only ever stuck (`xargs -i{}`). */
  readonly optional?: string;
  readonly longValues: readonly string[];
  /** Operands before the command: timeout's DURATION, flock's lock file. */
  readonly skipOperands?: number;
  /** `NAME=value` words after the options set the command's environment (env, sudo). */
  readonly assignments?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    values: 'ugCDhprtTUc',
    longValues: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user', 'login-class'],
    assignments: true,
  },
  doas: { values: 'uC', longValues: [] },
  env: { values: 'uCSP', longValues: ['unset', 'chdir', 'split-string'], assignments: true },
  command: { values: '', longValues: [] },
  builtin: { values: '', longValues: [] },
  exec: { values: 'a', longValues: [] },
  nohup: { values: '', longValues: [] },
  time: { values: 'fo', longValues: ['format', 'output'] },
  timeout: { values: 'sk', longValues: ['signal', 'kill-after'], skipOperands: 1 },
  nice: { values: 'n', longValues: ['adjustment'] },
  ionice: { values: 'cnpPu', longValues: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  stdbuf: { values: 'ioe', longValues: ['input', 'output', 'error'] },
  setsid: { values: '', longValues: [] },
  chronic: { values: '', longValues: [] },
  unbuffer: { values: '', longValues: [] },
  flock: { values: 'wEc', longValues: ['timeout', 'conflict-exit-code', 'command'], skipOperands: 1 },
  xargs: {
    values: 'adEILnPs',
    optional: 'eil',
    longValues: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
  },
  busybox: { values: '', longValues: [] },
};

export function isWrapper(program: string): boolean {
  return Object.hasOwn(WRAPPERS, program);
}

export interface Unwrapped {
  /** The command the wrapper runs; empty when it runs none (`sudo -l`, `env`, `command -v x`). */
  readonly inner: Field[];
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, Field>;
  readonly assignments: Map<string, Field>;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function unwrap(program: string, args: readonly Field[]): Unwrapped {
  const spec = WRAPPERS[program] as WrapperSpec;
  const flags = new Set<string>();
  const values = new Map<string, Field>();
  const assignments = new Map<string, Field>();
  let skipped = 0;
  let index = 0;
  while (index < args.length) {
    const field = args[index] as Field;
    const word = field.text;
    if (word === '--') {
      index += 1;
      break;
    }
    if (field.literal && word.startsWith('--') && word.length > 2) {
      const equals = word.indexOf('=');
      const name = equals < 0 ? word.slice(2) : word.slice(2, equals);
      flags.add(name);
      if (equals >= 0) values.set(name, { ...field, text: word.slice(equals + 1), knownPrefix: word.slice(equals + 1) });
      else if (spec.longValues.includes(name)) {
        const next = args[index + 1];
        if (next !== undefined) values.set(name, next);
        index += 1;
      }
      index += 1;
      continue;
    }
    if (field.literal && word.startsWith('-') && word.length > 1) {
      for (let at = 1; at < word.length; at += 1) {
        const letter = word[at] as string;
        flags.add(letter);
        const stuck = word.slice(at + 1);
        if (spec.optional?.includes(letter) === true) {
          if (stuck !== '') values.set(letter, { ...field, text: stuck, knownPrefix: stuck });
          break;
        }
        if (!spec.values.includes(letter)) continue;
        if (stuck !== '') values.set(letter, { ...field, text: stuck, knownPrefix: stuck });
        else {
          const next = args[index + 1];
          if (next !== undefined) values.set(letter, next);
          index += 1;
        }
        break;
      }
      index += 1;
      continue;
    }
    if (program === 'env' && word === '-') {
      index += 1;
      continue;
    }
    if (skipped < (spec.skipOperands ?? 0)) {
      skipped += 1;
      index += 1;
      continue;
    }
    break;
  }
  while (spec.assignments === true && index < args.length && ASSIGNMENT.test((args[index] as Field).knownPrefix)) {
    const field = args[index] as Field;
    const equals = field.text.indexOf('=');
    assignments.set(field.text.slice(0, equals), { ...field, text: field.text.slice(equals + 1), knownPrefix: field.knownPrefix.slice(equals + 1) });
    index += 1;
  }
  return { inner: args.slice(index), flags, values, assignments };
}
