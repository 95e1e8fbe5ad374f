import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  harness = await startWebHarness();
  await mkdir(join(harness.runsDir, 'pressure'), { recursive: true });
  await copyFile(join(process.cwd(), 'runs', 'pressure', 'example.jsonl'), join(harness.runsDir, 'pressure', 'example.jsonl'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's scan of the whole page as it is now: each serious or critical violation, with where it is. */
async function seriousViolations(page: Page): Promise<Finding[]> {
  await page.addScriptTag({ path: AXE });
  const findings = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => JSON.stringify(node.target)),
    }));
  });
  return findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}

async function openPage(hash: string, width = 1400): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${harness.server.url}/${hash}`);
  await page.locator('[data-testid="verdict-strip"][data-drawn]:not([data-drawn="0"])').waitFor();
  await page.getByTestId('selection').waitFor();
  // What the scan reads has all come: the run list (the picker's options, the replay form) and the pressure list (its tab).
  await page.getByTestId('replay-file').waitFor();
  await page.getByTestId('tab-pressure').waitFor();
  return page;
}

describe('axe-core finds no serious accessibility violation', () => {
  it('on the totals, with the strip as a table open', async () => {
    const page = await openPage('#/runs/example.jsonl');
    await page.getByTestId('totals').waitFor();
    await page.getByText('Verdicts as a table').click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('on the round list, filtered, with a round open', async () => {
    const page = await openPage('#/runs/example.jsonl?tab=rounds&verdict=violated');
    await page.getByTestId('round-row').first().click();
    await page.locator('[data-testid="round-view"][data-detail="full"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('on the rulebook and the pressure results', async () => {
    const page = await openPage('#/runs/example.jsonl?tab=rulebook');
    await page.locator('[data-testid^="rule-R"]').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('tab-pressure').click();
    await page.locator('[data-testid="pressure-view"][data-file]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('on a live run with a commit waiting, and with the waiting list open', async () => {
    const page = await openPage('#/runs/example.jsonl');
    await page.getByTestId('human-gate').check();
    await page.getByTestId('approval-timeout').fill('600');
    await page.getByTestId('replay-file').selectOption('example.jsonl');
    await page.getByTestId('start-replay').click();
    await page.getByTestId('approval-pending').first().waitFor();
    await page.getByRole('button', { name: /commits? waiting/ }).click();
    await page.getByTestId('waiting-list').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor();
    await page.close();
  });

  it('at 390 px', async () => {
    const page = await openPage('#/runs/example.jsonl', 390);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
