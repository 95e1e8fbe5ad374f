import { postJson } from '../../lib/http.ts';
import type { AppConfig } from '../../config/env.ts';

export interface TrackEvent {
  name: string;
  userId: string;
  properties?: Record<string, string | number | boolean>;
}

// Analytics is off unless a write key is configured, so local runs send nothing.
export async function track(config: AppConfig, event: TrackEvent): Promise<boolean> {
  if (config.analyticsWriteKey === undefined) return false;
  await postJson('https://events.metricsbox.example/v1/track', { ...event, stage: config.stage }, {
    headers: { authorization: `Basic ${Buffer.from(`${config.analyticsWriteKey}:`).toString('base64')}` },
  });
  return true;
}
