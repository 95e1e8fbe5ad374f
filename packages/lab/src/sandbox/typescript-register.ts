import { register } from 'node:module';

// Imported with `node --import` (through NODE_OPTIONS) into sandbox commands on a Node that cannot
// strip TypeScript types itself, so a task repo's dependency-free `npm test` runs on Node 20 too.
register(new URL('./typescript-hooks.js', import.meta.url));
