import { describe, expect, it } from 'vitest';
import { sedScriptMayWrite } from './sed-script.js';

describe('a sed script that may write a file or run a command', () => {
  it.each([
    ['w out.txt'],
    ['wout.txt'],
    ['w.git/hooks/pre-commit'],
    ['1wout.txt'],
    ['$w out.txt'],
    ['/a/wout.txt'],
    ['\\,a,w out.txt'],
    ['1,$ w out.txt'],
    ['1!W out.txt'],
    ['p;wout.txt'],
    ['$!N;wout.txt'],
    ['{p;w out.txt\n}'],
    ['s/a/b/wout.txt'],
    ['s/a/b/gw out.txt'],
    ['s|a|b|e'],
    ['1e touch x'],
    ['e'],
    ['s/a/b'],
    ['/unterminated'],
    ['K'],
  ])('%j may write', (script) => {
    expect(sedScriptMayWrite(script)).toBe(true);
  });

  it.each([
    ['s/a/b/'],
    ['s/a/b/g'],
    ['s/w/e/gI'],
    ['s#/path/w#/path/e#'],
    ['s/a\\/w/b/'],
    ['1d'],
    ['/^#/d;/^$/d'],
    ['$!N;P;D'],
    ['y/abc/xyz/'],
    ['1i\\\nheader'],
    ['a trailer with w and e in it'],
    [':a;N;$!ba;s/\\n/ /g'],
    ['10q'],
    ['/start/,/end/{s/x/y/;p}'],
    ['# a comment with w file\np'],
  ])('%j does not', (script) => {
    expect(sedScriptMayWrite(script)).toBe(false);
  });
});
