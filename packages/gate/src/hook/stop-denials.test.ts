import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STOP_DENIALS, boundStopDenials, resetStopDenials } from './stop-denials.js';
import type { TurnEnd } from './stop-denials.js';
import { sessionStatePath } from '../state/session-state.js';

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-stops-'));
  made.push(root);
  return root;
}

const DENIED = 'holdfast: src/a.ts has no test.';

function ends(answer: TurnEnd): boolean {
  return answer.kind === 'end';
}

describe('the Stop-denial bound', () => {
  it('ends the turn at the bound, and an allowed Stop starts the count again', () => {
    const root = project();
    for (let denial = 1; denial < MAX_STOP_DENIALS; denial += 1) expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(true);
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
    resetStopDenials(root, 's1');
    for (let denial = 1; denial < MAX_STOP_DENIALS; denial += 1) expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
  });

  it('a command that deletes the count does not reset the bound into a loop: the mirror keeps it', () => {
    const root = project();
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
    rmSync(sessionStatePath(root, 's1', '.stops'));
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(true);
  });

  it('a count rewritten by a command is put back from the mirror', () => {
    const root = project();
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(false);
    writeFileSync(sessionStatePath(root, 's1', '.stops'), '0');
    expect(ends(boundStopDenials(root, 's1', DENIED))).toBe(true);
  });

  it('a count no seal verifies and no mirror vouches for fails closed: the turn ends now, with the reason', () => {
    const root = project();
    mkdirSync(join(root, '.holdfast', 'sessions'), { recursive: true });
    writeFileSync(sessionStatePath(root, 's1', '.stops'), '0');
    const answer = boundStopDenials(root, 's1', DENIED);
    expect(ends(answer)).toBe(true);
    expect(answer.kind === 'end' ? answer.message : '').toContain('src/a.ts has no test.');
  });
});
