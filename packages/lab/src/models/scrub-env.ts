/** Variables a program needs to find itself, its home and its locale. Nothing that could be a key. */
const BASE_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'PWD',
  // Windows needs these to start most programs.
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
]);

const BASE_PREFIXES = ['LC_', 'XDG_'];

/** Names that look like they hold a credential. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|CERT/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The environment a command target runs in: the base variables (minus anything secret-looking)
 * plus the target's explicit allowlist. Fail closed: a variable not named is not passed, and an
 * allowlisted secret is passed only because a person wrote its name in the config.
 */
export function scrubEnv(env: NodeJS.ProcessEnv, allow: readonly string[] = []): Record<string, string> {
  const allowed = new Set(allow);
  const scrubbed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    const base = BASE_NAMES.has(upper) || BASE_PREFIXES.some((prefix) => upper.startsWith(prefix));
    if (allowed.has(name) || (base && !looksSecret(name))) scrubbed[name] = value;
  }
  return scrubbed;
}
