import { describe, expect, it } from 'vitest';
import { roundIdOf } from '../experiment/runner.js';
import { roundLabel } from './round-label.js';

describe('roundLabel', () => {
  it('counts repetitions from 1 where the run file counts from 0', () => {
    expect(roundIdOf('demo-hasty', 'bump-date-fns', 0)).toBe('demo-hasty/bump-date-fns/0');
    expect(roundLabel({ target: 'demo-hasty', task: 'bump-date-fns', rep: 0 })).toBe('demo-hasty · bump-date-fns · rep 1');
    expect(roundLabel({ target: 't', task: 'k', rep: 4 })).toBe('t · k · rep 5');
  });
});
