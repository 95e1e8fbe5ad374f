import { describe, expect, it } from 'vitest';
import { findGenericSecrets } from './generic-detector.js';
import { randomChars } from './test-support/fake-secrets.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = randomChars(ALPHANUMERIC, 32, 7);
const password = 'Tr0' + 'ub4dor&3xK';
const dbPassword = 's3cr3t' + 'P4ss';

function detect(content: string, file: string): { detector: string; value: string }[] {
  return findGenericSecrets(content, file, 3).map(({ detector, value }) => ({ detector, value }));
}

describe('findGenericSecrets: credentials assigned to literals', () => {
  it.each([
    ['TS const', 'src/a.ts', `const password = "${password}";`, password, 'password literal'],
    ['TS object property', 'src/a.ts', `export const config = { apiKey: '${token}' };`, token, 'API key literal'],
    ['TS annotated', 'src/a.ts', `const clientSecret: string = "${token}";`, token, 'secret literal'],
    ['env fallback', 'src/a.ts', `const apiKey = process.env.API_KEY || "${token}";`, token, 'API key literal'],
    ['JSON', 'config/app.json', `{\n  "db": { "password": "${password}" }\n}`, password, 'password literal'],
    ['YAML unquoted', 'config/app.yaml', `database:\n  password: ${password}\n`, password, 'password literal'],
    ['YAML quoted', 'config/app.yml', `auth:\n  token: "${token}"\n`, token, 'token literal'],
    ['.env', '.env', `NODE_ENV=production\nSTRIPE_SECRET=${token}\n`, token, 'secret literal'],
    ['.env export', 'scripts/env.sh', `export API_TOKEN=${token}\n`, token, 'token literal'],
    ['Dockerfile ENV =', 'Dockerfile', `FROM node:20\nENV API_KEY=${token}\n`, token, 'API key literal'],
    ['Dockerfile ENV space', 'Dockerfile', `FROM node:20\nENV API_KEY ${token}\n`, token, 'API key literal'],
    ['Dockerfile ARG', 'build/app.dockerfile', `ARG NPM_TOKEN=${token}\n`, token, 'token literal'],
    ['Python', 'app/settings.py', `SECRET_KEY = '${token}'`, token, 'secret literal'],
    ['Go', 'main.go', `dbPassword := "${password}"`, password, 'password literal'],
    ['PHP array', 'config.php', `'private_key' => '${token}',`, token, 'private key literal'],
    ['bearer header', 'src/api.ts', `fetch(url, { headers: { Authorization: 'Bearer ${token}' } });`, token, 'bearer token'],
    ['bearer in curl', 'scripts/call.sh', `curl -H "Authorization: Bearer ${token}" https://api.example.org`, token, 'bearer token'],
    ['x-api-key header', 'src/api.ts', `headers: { 'x-api-key': "${token}" }`, token, 'API key literal'],
  ])('%s', (_name, file, content, value, detector) => {
    expect(detect(content, file)).toEqual([{ detector, value }]);
  });

  it.each([
    ['postgres', `const url = "postgres://app:${dbPassword}@db.internal:5432/app";`],
    ['redis without user', `REDIS_URL=redis://:${dbPassword}@cache:6379/0`],
    ['amqp', `broker: amqp://worker:${dbPassword}@rabbit/vhost`],
  ])('a password inside a %s URL', (_name, content) => {
    expect(detect(content, 'config/app.yaml')).toEqual([{ detector: 'password in a connection URL', value: dbPassword }]);
  });
});

describe('findGenericSecrets: look-alikes that are not secrets', () => {
  it.each([
    ['env read', 'src/a.ts', 'const apiKey = process.env.API_KEY;'],
    ['env read with ??', 'src/a.ts', "const token = process.env.TOKEN ?? '';"],
    ['python environ', 'app.py', "SECRET_KEY = os.environ['SECRET_KEY']"],
    ['template', 'config/app.yaml', 'password: ${DB_PASSWORD}'],
    ['shell variable', '.env', 'API_TOKEN=$CI_TOKEN'],
    ['mustache', 'config/app.yaml', 'token: "{{ vault_token }}"'],
    ['angle placeholder', 'src/a.ts', 'const apiKey = "<YOUR_API_KEY>";'],
    ['your-key-here', 'src/a.ts', "const apiKey = 'your-api-key-here';"],
    ['xxxx', '.env', 'API_KEY=xxxxxxxxxxxxxxxxxxxx'],
    ['stars', 'config/app.yaml', 'password: "************"'],
    ['changeme', '.env', 'DB_PASSWORD=changeme123'],
    ['example', 'src/a.ts', 'const secret = "example-secret-9f8e7d";'],
    ['dummy', 'src/a.ts', "const token = 'dummy-token-1234567';"],
    ['test', 'src/a.test.ts', "const password = 'test-password-1';"],
    ['empty', 'src/a.ts', 'const password = "";'],
    ['short', 'src/a.ts', 'const pwd = "a1B2";'],
    ['low entropy', 'src/a.ts', 'const token = "aaaaaaaabbbbbbbb";'],
    ['type annotation', 'src/a.ts', 'interface Login { password: string; token?: string }'],
    ['function call', 'src/a.ts', 'const token = getToken();'],
    ['identifier', 'src/a.ts', 'const apiKey = settings.apiKey;'],
    ['storage key name', 'src/a.ts', 'const TOKEN_STORAGE = "app.auth.token";'],
    ['constant name', 'src/a.ts', "const token = 'ACCESS_TOKEN';"],
    ['descriptor name', 'src/a.ts', "const passwordHint = 'Use 12 characters or more';"],
    ['token url', 'src/a.ts', 'const tokenUrl = "https://auth.example.org/oauth/token";'],
    ['password field id', 'src/a.tsx', '<input id="password" name="password" type="password" />'],
    ['comparison', 'src/a.ts', 'if (password === "") return;'],
    ['localhost URL without password', 'config/app.yaml', 'url: postgres://localhost:5432/app'],
    ['URL user only', 'config/app.yaml', 'url: https://user@github.com/org/repo'],
    ['URL default password', 'docker-compose.yml', 'DATABASE_URL: postgres://postgres:postgres@localhost:5432/dev'],
    ['URL template password', '.env', 'DATABASE_URL=postgres://${DB_USER}:${DB_PASS}@db/app'],
    ['uuid in a non-credential field', 'src/a.ts', 'const requestId = "3f1c9a52-7b4e-4d2a-9c8f-1e6b5d4a3c2b";'],
    ['lockfile integrity hash', 'package-lock.json', '"integrity": "sha512-4rEE2BVhC3n0XEAL5sXvEp0YOwZXbMx2uQOPBz9iSp4b1Q8dTbJkYd+gX2w0LZ0a9y9yKQ7Qk2l3A=="'],
    ['author', 'package.json', '"author": "Jane Q. Doe <jane@example.org>"'],
    ['React key', 'src/a.tsx', '<Row key={item.id} keyboard="QwErTy12345" />'],
    [
      'jwt.io sample',
      'src/a.ts',
      `const token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ'}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";`,
    ],
    ['error message', 'src/a.ts', "const passwordError = 'Password must contain a digit';"],
    ['prose with spaces', 'README.md', 'token: the token you created in settings'],
    ['bearer template', 'src/a.ts', 'headers: { Authorization: `Bearer ${token}` }'],
  ])('%s', (_name, file, content) => {
    expect(detect(content, file)).toEqual([]);
  });
});

describe('findGenericSecrets: positions', () => {
  it('returns the span of the value itself', () => {
    const content = `const a = 1;\nconst password = "${password}";\n`;
    const [found] = findGenericSecrets(content, 'src/a.ts', 3);
    expect(found && content.slice(found.start, found.end)).toBe(password);
  });

  it('looks inside a rejected quoted literal for assignments it holds', () => {
    const content = `const secretConfig = '{"password": "${password}"}';`;
    expect(detect(content, 'src/a.ts')).toEqual([{ detector: 'password literal', value: password }]);
  });
});

describe('findGenericSecrets: the bounds of one keyword hit', () => {
  it('judges a name of up to 64 characters, wherever its keyword sits, and skips a longer one', () => {
    for (const name of ['password', `${'x'.repeat(56)}Password`, `password${'X'.repeat(56)}`]) {
      expect(detect(`const ${name} = "${password}";`, 'src/a.ts')).toHaveLength(1);
    }
    for (const name of [`${'x'.repeat(57)}Password`, `password${'X'.repeat(57)}`, `${'x'.repeat(30)}password${'X'.repeat(30)}`]) {
      expect(detect(`const ${name} = "${password}";`, 'src/a.ts')).toEqual([]);
    }
  });

  it('keeps each recurring name to its own verdict, names of one length included', () => {
    const content = Array.from({ length: 6 }, () => `tokenUrl = "${token}"\npassword = "${password}"\nsecretId = "${token}"\n`).join('');
    expect(detect(content, 'config/app.ini')).toEqual(Array.from({ length: 6 }, () => ({ detector: 'password literal', value: password })));
  });

  it('finds an env fallback up to 200 characters after the name, on every hit of a long line', () => {
    const fallback = (gap: number) => `apiKey = process.env.API_KEY${' '.repeat(gap)} || "${token}"`;
    expect(detect(fallback(170), 'src/a.ts')).toHaveLength(1);
    expect(detect(fallback(200), 'src/a.ts')).toEqual([]);
    const line = Array.from({ length: 5 }, () => `${fallback(3)}, `).join('');
    expect(detect(line, 'src/a.ts')).toHaveLength(5);
  });
});
