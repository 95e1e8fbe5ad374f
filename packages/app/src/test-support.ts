export { makeWorkspace } from './test-support/fixture.js';
export { launchChromium, openPage, startWebHarness } from './test-support/web-harness.js';
export type { WebHarness } from './test-support/web-harness.js';
export { projectRoot } from './test-support/project-root.js';
