// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it). Plain JavaScript
// that reads the Dockerfile, so it runs without docker and without the private registry.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions() {
  return readFileSync('Dockerfile', 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const INSTALL = /\bnpm\s+(?:ci|install|i)\b/;
const WITHOUT_DEV = /--omit[= ]dev|--only[= ]prod|--production\b|NODE_ENV=production/;

test('the dev dependencies (tsc) are installed before `npm run build`', () => {
  const lines = instructions();
  const build = lines.findIndex((line) => /^RUN\b.*\bnpm\s+run\s+build\b/.test(line));
  assert.notEqual(build, -1, 'the image still builds with npm run build');
  const installs = lines.slice(0, build).filter((line) => line.startsWith('RUN') && INSTALL.test(line));
  assert.ok(installs.length > 0, 'dependencies are installed before the build');
  assert.doesNotMatch(installs.at(-1), WITHOUT_DEV, `the last install before the build is "${installs.at(-1)}"`);
  const envBefore = lines.slice(0, build).filter((line) => /^ENV\b.*NODE_ENV[= ]production/.test(line));
  assert.equal(envBefore.length, 0, 'NODE_ENV=production before the build makes npm skip the dev dependencies');
});

test('the registry token reaches npm ci from the build, never as a default baked into the image', () => {
  const lines = instructions();
  for (const line of lines.filter((candidate) => /^(?:ARG|ENV)\b.*NPM_TOKEN/.test(candidate))) {
    assert.doesNotMatch(line, /NPM_TOKEN[= ]\s*\S/, `"${line}" gives the token a value`);
  }
});
