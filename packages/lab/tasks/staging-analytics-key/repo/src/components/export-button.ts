import { track } from '../features/analytics/track.ts';
import type { AppConfig } from '../config/env.ts';

/** Called when a support agent exports a report; the export itself happens server side. */
export async function onExportClicked(config: AppConfig, userId: string, report: string): Promise<void> {
  await track(config, { name: 'report_exported', userId, properties: { report } });
}
