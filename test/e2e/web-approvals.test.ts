import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveRunsResponseSchema } from '@holdfast/core/contract';
import { launchChromium, openPage as openHarnessPage, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';

let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;

beforeAll(async () => {
  harness = await startWebHarness();
  browser = await launchChromium();
  context = browser.context;
  await context.grantPermissions(['notifications'], { origin: harness.server.url });
  // Records each Notification the page raises, then raises it for real.
  await context.addInitScript(() => {
    const Real = window.Notification;
    const shown: string[] = [];
    (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title}|${options?.tag ?? ''}`);
      }
    }
    window.Notification = Recorded;
  });
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const openPage = (hash = ''): Promise<Page> => openHarnessPage(context, harness.server.url, hash);

/** How many runs the server has started so far (it never forgets one while it runs), as its own list says. */
async function liveRunCount(): Promise<number> {
  const response = await fetch(`${harness.server.url}/api/live`, { headers: { accept: 'application/json' } });
  return LiveRunsResponseSchema.parse(await response.json()).runs.length;
}

async function startGatedReplay(page: Page): Promise<string> {
  await page.getByTestId('selection').waitFor();
  await page.getByTestId('human-gate').check();
  await page.getByTestId('approval-timeout').fill('600');
  await page.getByTestId('replay-file').selectOption('example.jsonl');
  await page.getByTestId('start-replay').click();
  await page.waitForURL(/#\/live\//);
  return decodeURIComponent(new URL(page.url()).hash.replace('#/live/', ''));
}

describe('approvals are never out of reach', () => {
  it('shows every waiting commit on any page, and any page on the live run can answer it', async () => {
    const starter = await openPage();
    const runId = await startGatedReplay(starter);
    await starter.getByTestId('approval-pending').first().waitFor();

    // A page on another run: the header counts the waiting commit, the title says so, the live
    // region announces it and a notification is raised.
    const bystander = await openPage('#/runs/example.jsonl');
    const waiting = bystander.locator('[data-testid="waiting-approvals"]:not([data-count="0"])');
    await waiting.waitFor();
    const count = Number(await waiting.getAttribute('data-count'));
    expect(count).toBeGreaterThan(0);
    // The title, the announcement and the notification follow the count in effects that run after it is drawn.
    await expect.poll(() => bystander.title()).toMatch(/^\(\d+\) holdfast/);
    await expect.poll(() => bystander.getByTestId('approval-announcement').textContent()).toMatch(/waiting for approval/);
    await expect(bystander.getByTestId('approval-announcement').getAttribute('aria-live')).resolves.toBe('polite');
    const shownNotifications = () => bystander.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications);
    await expect.poll(async () => (await shownNotifications()).length).toBeGreaterThan(0);
    expect((await shownNotifications())[0]).toMatch(/^holdfast: commit waiting\|/);

    // The picker lists the running run without a reload.
    await expect(bystander.getByTestId('picker-live-run').first().textContent()).resolves.toContain(runId);

    // From the header to the run, where the commit can be approved.
    await bystander.getByRole('button', { name: /commits? waiting/ }).click();
    const entry = bystander.getByTestId('waiting-approval').first();
    const approvalId = await entry.getAttribute('data-approval-id');
    await entry.click();
    await bystander.waitForURL(new RegExp(`#/live/${runId}`));
    const pending = bystander.locator(`[data-testid="approval-pending"][data-approval-id="${approvalId}"]`);
    await pending.getByRole('button', { name: 'Approve commit' }).click();
    const approved = bystander.locator(`[data-testid="approval-finished"][data-approval-id="${approvalId}"]`);
    await approved.waitFor();
    expect(await approved.getAttribute('data-decision')).toBe('approved');
    // The starting page sees the answer too.
    await starter.locator(`[data-testid="approval-finished"][data-approval-id="${approvalId}"][data-decision="approved"]`).waitFor();

    // The run's file opened by name (as after a reload from the picker) is shown live and can answer.
    const reloaded = await openPage(`#/runs/${runId}.jsonl`);
    const waitingNext = reloaded.locator(`[data-testid="approval-pending"]:not([data-approval-id="${approvalId}"])`).first();
    await waitingNext.waitFor();
    const refusedId = await waitingNext.getAttribute('data-approval-id');
    const next = reloaded.locator(`[data-testid="approval-pending"][data-approval-id="${refusedId}"]`);
    // It can answer: the button is enabled once the page holds the run's token.
    await next.getByRole('button', { name: 'Refuse', disabled: false }).waitFor();
    await next.getByRole('button', { name: 'Refuse' }).click();
    await reloaded.locator(`[data-testid="approval-finished"][data-approval-id="${refusedId}"][data-decision="refused"]`).waitFor();

    await starter.getByRole('button', { name: 'Cancel run' }).click();
    await starter.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor();
    // Once the run ends nothing waits: the header and title clear on every page.
    await bystander.locator('[data-testid="waiting-approvals"][data-count="0"]').waitFor();
    await expect.poll(() => bystander.title()).toBe('holdfast');
    for (const page of [starter, bystander, reloaded]) await page.close();
  });

  it('keeps a waiting commit in view on a phone: a notice with the count and the countdown, which scrolls to it', async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await startGatedReplay(page);
    const notice = page.locator('[data-testid="waiting-notice"]');
    await notice.waitFor();
    // Scrolled to the bottom of the page, far from the approvals, the notice is still in the viewport.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const inView = () =>
      notice.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
      });
    await expect(inView()).resolves.toBe(true);
    await expect(notice.textContent()).resolves.toMatch(/^Approval needed: \d+ commits? · the first is refused in \d+:\d\d · show$/);
    expect(Number(await notice.getAttribute('data-count'))).toBeGreaterThan(0);
    await notice.click();
    // The run whose commit is refused first (this one, or another test's) opens with its approvals in view.
    await page.waitForURL(/#\/live\//);
    await expect
      .poll(() =>
        page
          .getByTestId('approval-pending')
          .first()
          .evaluate((element) => {
            const box = element.getBoundingClientRect();
            return box.top < window.innerHeight && box.bottom > 0;
          }),
      )
      .toBe(true);
    await page.getByTestId('approval-pending').first().getByRole('button', { name: 'Refuse' }).click();
    await page.close();
  });

  it('a second run started elsewhere appears in the picker of an open page, and neither drops the other', async () => {
    const watcher = await openPage('#/runs/example.jsonl');
    await watcher.getByTestId('selection').waitFor();
    // Runs of the earlier tests may still be listed: the watcher counts them once its first snapshot of the
    // server's runs has come (the page asks for it on its own), which is when it lists as many as the server has.
    const before = await liveRunCount();
    await expect.poll(() => watcher.getByTestId('picker-live-run').count()).toBe(before);
    const first = await openPage();
    const firstId = await startGatedReplay(first);
    const second = await openPage();
    const secondId = await startGatedReplay(second);
    await watcher.locator('[data-testid="picker-live-run"]', { hasText: secondId }).waitFor({ state: 'attached' });
    await watcher.locator('[data-testid="picker-live-run"]', { hasText: firstId }).waitFor({ state: 'attached' });
    expect(await watcher.getByTestId('picker-live-run').count()).toBe(before + 2);
    // Opening the first from the picker gives a page that can answer its commits.
    await watcher.getByTestId('run-picker').selectOption(`#/live/${encodeURIComponent(firstId)}`);
    const pending = watcher.getByTestId('approval-pending').first();
    await pending.waitFor();
    await pending.getByRole('button', { name: 'Approve commit', disabled: false }).waitFor();
    for (const page of [first, second]) {
      await page.getByRole('button', { name: 'Cancel run' }).click();
      await page.locator('[data-testid="run-status"][data-status="interrupted"]').waitFor();
    }
    await watcher
      .locator('[data-testid="picker-live-run"]', { hasText: `${firstId} · ` })
      .filter({ hasText: 'ended' })
      .waitFor({ state: 'attached' });
    for (const page of [watcher, first, second]) await page.close();
  });
});
