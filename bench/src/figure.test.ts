import { describe, expect, it } from 'vitest';
import { completeFigure, formatFigure, growthFigure } from './figure.js';

describe('a benchmark figure', () => {
  it('is held to its ratio against the baseline measured in the same run', () => {
    const figure = completeFigure('secrets', {
      name: 'R1 scan',
      value: 6.34,
      unit: 'MiB/s',
      better: 'higher',
      baseline: { name: 'secretlint alone', value: 6.65 },
      target: { on: 'ratio', atLeast: 1 },
    });
    expect(figure).toMatchObject({ bench: 'secrets', met: false });
    expect(figure.ratio).toBeCloseTo(0.953, 3);
    expect(formatFigure(figure)).toBe(
      'R1 scan: 6.34 MiB/s | baseline secretlint alone 6.65 MiB/s | ratio 0.95× (higher is better) | target ratio ≥ 1× | MISSED',
    );
  });

  it('is held to its own value when the target says so, and says when it has no target', () => {
    const bounded = completeFigure('secrets', {
      name: 'growth',
      value: 10.3,
      unit: '×',
      better: 'lower',
      target: { on: 'value', atMost: 12 },
      detail: '0.25 → 2.58 ms',
    });
    expect(formatFigure(bounded)).toBe('growth: 10.3 × (0.25 → 2.58 ms) | target ≤ 12.0 × | met');
    expect(formatFigure(completeFigure('store', { name: 'append', value: 120, unit: 'MB/s', better: 'higher' }))).toBe('append: 120 MB/s | no target');
  });

  it('cannot meet a ratio target without a baseline', () => {
    expect(completeFigure('runner', { name: 'x', value: 1, unit: 's', better: 'lower', target: { on: 'ratio', atMost: 1 } }).met).toBe(false);
  });
});

describe('a growth figure', () => {
  it('is held to its bound when the times are measurable, and only shown when they are timer noise', () => {
    expect(completeFigure('reply', growthFigure('shape', 4.26, 43.28, 10, 12)).met).toBe(true);
    expect(completeFigure('reply', growthFigure('shape', 1, 15.4, 10, 12)).met).toBe(false);
    const noise = completeFigure('checks', growthFigure('skipped scan', 0.001, 0.02, 10, 12));
    expect(noise.met).toBeUndefined();
    expect(formatFigure(noise)).toContain('too fast to judge growth');
  });

  it('shows the times per run behind the ratio', () => {
    expect(formatFigure(completeFigure('pressure', growthFigure('prose', 1.5, 6, 3, 3.6)))).toBe(
      'prose: 4.00 × (1.50 → 6.00 ms) | baseline linear growth 3.00 × | ratio 1.33× (lower is better) | target ≤ 3.60 × | MISSED',
    );
  });
});
