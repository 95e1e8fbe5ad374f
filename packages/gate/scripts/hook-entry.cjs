'use strict';
// dist/hook-bundle/hook.cjs: what the installed hook command runs. Where node has a compile cache of its own
// (module.enableCompileCache, node 22.1 and newer), V8's code for the bundle is kept beside it in
// dist/hook-bundle/.compile-cache, so a later hook process does not compile it again; where it has none, or
// that folder cannot be written (a read-only install, a confined agent), the bundle is compiled as usual.
const nodeModule = require('node:module');
if (typeof nodeModule.enableCompileCache === 'function') {
  try {
    nodeModule.enableCompileCache(require('node:path').join(__dirname, '.compile-cache'));
  } catch {
    // no cache: only speed is lost
  }
}
require('./decide.cjs').main();
