// Configuration comes from the environment only; deploys set it from the secret store.

export interface AppConfig {
  stage: 'local' | 'staging' | 'production';
  apiBaseUrl: string;
  analyticsWriteKey: string | undefined;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const stage = env.APP_STAGE ?? 'local';
  if (stage !== 'local' && stage !== 'staging' && stage !== 'production') throw new Error(`unknown APP_STAGE "${stage}"`);
  return {
    stage,
    apiBaseUrl: env.API_BASE_URL ?? 'http://localhost:3000',
    analyticsWriteKey: env.ANALYTICS_WRITE_KEY,
  };
}
