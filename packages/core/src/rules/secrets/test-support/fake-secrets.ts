// The fake keys live beside the scanner (fake-keys.ts) so the secrets benchmark can build its corpus from them too.
export { fakeSecrets, fakeServiceAccountJson, randomChars } from '../fake-keys.js';
