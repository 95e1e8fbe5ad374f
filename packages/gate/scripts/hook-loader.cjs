'use strict';
// dist/hook/hook.cjs: what the installed hook command runs. It loads the bundled decision
// (decide.cjs) with V8's code for it, made by `npm run build` on this node after running sample
// decisions (scripts/warm-hook-cache.cjs), so the functions a decision runs are compiled already:
// compiling the bundle is much of what a cold hook process costs. V8 refuses a cache made by another
// node or for another source, and the bundle is then compiled as usual; nothing else changes.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const file = join(__dirname, 'decide.cjs');
const cacheFile = `${file}.v8cache`;

/** Compiles and runs decide.cjs (with `cachedData` when given); returns its exports and the compiled script. */
function loadDecide(cachedData) {
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const decide = new Module(file, module);
  decide.filename = file;
  decide.paths = Module._nodeModulePaths(__dirname);
  // The lazily loaded chunks require './decide.cjs': they must get this very module.
  require.cache[file] = decide;
  script.runInThisContext().call(decide.exports, decide.exports, Module.createRequire(file), decide, file, __dirname);
  decide.loaded = true;
  return { exports: decide.exports, script };
}

if (require.main === module) {
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  loadDecide(cachedData).exports.main();
} else {
  module.exports = { loadDecide, cacheFile };
}
