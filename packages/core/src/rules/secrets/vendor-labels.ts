/** Readable names for the message ids of the secretlint recommended preset (v12). */
export const VENDOR_LABELS: Readonly<Record<string, string>> = {
  AWSAccessKeyID: 'AWS access key id',
  AWSSecretAccessKey: 'AWS secret access key',
  AWSAccountID: 'AWS account id',
  PrivateKeyJSON: 'GCP service account key',
  PrivateKeyP12: 'GCP service account key (p12)',
  PrivateKey: 'private key',
  PackageJSON_xOauthToken: 'GitHub token in a package URL',
  Npmrc_authToken: 'npm auth token',
  NPM_ACCESS_TOKEN: 'npm access token',
  BasicAuth: 'password in a basic-auth URL',
  SLACK_TOKEN: 'Slack token',
  IncomingWebhook: 'Slack incoming webhook URL',
  SENDGRID_KEY: 'SendGrid API key',
  SHOPIFY_KEY: 'Shopify API key',
  GITHUB_TOKEN: 'GitHub token',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'GitLab personal access token',
  GRAFANA_CLOUD_API_TOKEN: 'Grafana Cloud API token',
  GRAFANA_SERVICE_ACCOUNT_TOKEN: 'Grafana service account token',
  OPENAI_TOKEN: 'OpenAI API key',
  ANTHROPIC_API_KEY: 'Anthropic API key',
  GROQ_API_KEY: 'Groq API key',
  HUGGINGFACE_USER_ACCESS_TOKEN: 'Hugging Face access token',
  LINEAR_API_TOKEN: 'Linear API key',
  NOTION_INTEGRATION_TOKEN: 'Notion integration token',
  OPS_TOKEN: '1Password service account token',
  MongoDBConnection: 'MongoDB connection string with a password',
  MySQLConnection: 'MySQL connection string with a password',
  PostgreSQLConnection: 'PostgreSQL connection string with a password',
  HASHICORP_VAULT_SERVICE_TOKEN: 'HashiCorp Vault service token',
  HASHICORP_VAULT_BATCH_TOKEN: 'HashiCorp Vault batch token',
  HASHICORP_VAULT_RECOVERY_TOKEN: 'HashiCorp Vault recovery token',
  VERCEL_PERSONAL_ACCESS_TOKEN: 'Vercel personal access token',
  VERCEL_INTEGRATION_TOKEN: 'Vercel integration token',
  VERCEL_APP_ACCESS_TOKEN: 'Vercel app access token',
  VERCEL_APP_REFRESH_TOKEN: 'Vercel app refresh token',
  VERCEL_AI_GATEWAY_API_KEY: 'Vercel AI Gateway API key',
  DATABRICKS_PERSONAL_ACCESS_TOKEN: 'Databricks personal access token',
  DOCKER_PERSONAL_ACCESS_TOKEN: 'Docker personal access token',
  FIGMA_PERSONAL_ACCESS_TOKEN: 'Figma personal access token',
};

const RULE_PREFIX = '@secretlint/secretlint-rule-';

export function vendorLabel(ruleId: string, messageId: string): string {
  return VENDOR_LABELS[messageId] ?? `${ruleId.replace(RULE_PREFIX, '')} secret (${messageId})`;
}
