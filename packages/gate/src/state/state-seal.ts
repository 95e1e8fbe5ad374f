import { closeSync, mkdirSync, openSync, readFileSync, symlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto, nodeOs } from '../io/index.js';

/** The key is this many random bytes; a shorter key file is not holdfast's and is refused. */
const KEY_BYTES = 32;

let cachedKey: Buffer | undefined;
let cachedHome: string | undefined;

/**
 * Where holdfast keeps what a project's own tools must not rewrite: the seal key and the mirror of
 * each session record. It is under the user's home as the password database names it, not `$HOME`:
 * a command sets `$HOME` for the git hook it starts (`HOME=/tmp/x git commit`), never the database.
 */
export function sealHome(): string {
  cachedHome ??= join(nodeOs().userInfo().homedir, '.local', 'state', 'holdfast');
  return cachedHome;
}

/**
 * Tests only, in their own process: every mirror in a folder the test made and removes. The key stays
 * the machine's (linked into the folder), so a hook process the test starts (which uses the real home)
 * verifies what the test wrote, and the other way round. It is a call, never a variable or a file:
 * nothing an agent can set reaches it, so it cannot redirect the real hook's key.
 */
export function useSealHomeForTests(folder: string | undefined): void {
  cachedHome = undefined;
  cachedKey = undefined;
  if (folder === undefined) return;
  const key = join(sealHome(), 'seal.key');
  sealKey();
  symlinkSync(key, join(folder, 'seal.key'));
  cachedHome = folder;
  cachedKey = undefined;
}

/** The key, made on first use (0600 in a 0700 folder); two hooks making it at once agree on the first one written. */
function sealKey(): Buffer {
  if (cachedKey !== undefined) return cachedKey;
  const folder = sealHome();
  const file = join(folder, 'seal.key');
  try {
    const key = readFileSync(file);
    if (key.length === KEY_BYTES) return (cachedKey = key);
  } catch {
    // made below
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const fresh = nodeCrypto().randomBytes(KEY_BYTES);
  try {
    const descriptor = openSync(file, 'wx', 0o600);
    try {
      writeSync(descriptor, fresh);
    } finally {
      closeSync(descriptor);
    }
    return (cachedKey = fresh);
  } catch {
    const key = readFileSync(file);
    if (key.length !== KEY_BYTES) throw new Error(`holdfast's seal key ${file} is not a key holdfast made`);
    return (cachedKey = key);
  }
}

function mac(purpose: string, body: string): string {
  return nodeCrypto().createHmac('sha256', sealKey()).update(purpose).update('\0').update(body).digest('hex');
}

/**
 * A record the gate reads back later, with an HMAC over its purpose and body: a file a command
 * forged or edited does not verify, and one written for another purpose (another session) does not
 * either. The first line is the seal, the rest the body.
 */
export function sealText(purpose: string, body: string): string {
  return `${mac(purpose, body)}\n${body}`;
}

/** The body of a sealed record, or undefined when it is not one holdfast wrote for this purpose. */
export function unsealText(purpose: string, text: string): string | undefined {
  const end = text.indexOf('\n');
  if (end !== 64) return undefined;
  const body = text.slice(end + 1);
  const expected = Buffer.from(mac(purpose, body), 'hex');
  const given = Buffer.from(text.slice(0, end), 'hex');
  return given.length === expected.length && nodeCrypto().timingSafeEqual(given, expected) ? body : undefined;
}

/** A short stable name for a project folder in the seal home. */
export function projectKey(realRoot: string): string {
  return nodeCrypto().createHash('sha256').update(realRoot).digest('hex').slice(0, 24);
}
