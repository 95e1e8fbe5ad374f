import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'holdfast-peak-rss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The measuring process runs the built module (the global setup builds bench/ first), as the bench does.
const BUILT = new URL('../dist/peak-rss.js', import.meta.url).href;

async function measureInChild(body: string): Promise<{ peak: number; source: string }> {
  const script = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(script, `import { PeakRss } from ${JSON.stringify(BUILT)};\n${body}`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', fileURLToPath(new URL(`file://${script}`))]);
  return JSON.parse(stdout) as { peak: number; source: string };
}

describe('PeakRss', () => {
  it('reads the peak of the measuring process itself, not the RSS its parent had when it spawned it', async () => {
    // The parent holds 300 MB, touched, while the child is spawned: ru_maxrss would report them as the child's.
    const held = Buffer.alloc(300 * MB, 1);
    const measured = await measureInChild(
      `const peak = PeakRss.start();
       const grown = Buffer.alloc(64 * 1024 * 1024, 1);
       process.stdout.write(JSON.stringify({ peak: peak.stop(), source: peak.source, grown: grown.length }));`,
    );
    expect(held.length).toBe(300 * MB);
    expect(measured.source).toBe('VmHWM');
    expect(measured.peak).toBeGreaterThan(64);
    expect(measured.peak).toBeLessThan(250);
  });

  it('covers only the stretch: memory let go before start is not part of its peak', async () => {
    const measured = await measureInChild(
      `let before = Buffer.alloc(300 * 1024 * 1024, 1);
       before = undefined;
       globalThis.gc();
       await new Promise((resolve) => setTimeout(resolve, 0));
       globalThis.gc();
       const peak = PeakRss.start();
       process.stdout.write(JSON.stringify({ peak: peak.stop(), source: peak.source }));`,
    );
    expect(measured.peak).toBeLessThan(250);
  });
});
