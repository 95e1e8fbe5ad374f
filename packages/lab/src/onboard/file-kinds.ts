/** A test file by the names test runners look for (x.test.ts, x_test.go, test_x.py, tests/…, __tests__/…, spec/…). */
export function isTestPath(path: string): boolean {
  return (
    /(^|\/)(?:tests?|__tests__|spec)\//.test(path) ||
    /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(path) ||
    /_test\.(?:go|py|rb|exs?)$/.test(path) ||
    /(^|\/)test_[^/]+\.py$/.test(path)
  );
}

/** Source files by extension: a commit that touches only docs, config or lock files beside its tests is no ticket. */
const CODE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|vue|svelte|astro|py|pyi|go|rs|rb|java|kt|kts|scala|groovy|swift|m|mm|c|h|cc|cpp|cxx|hpp|hh|cs|fs|vb|php|ex|exs|erl|hrl|clj|cljs|dart|lua|hs|ml|mli|elm|zig|nim|jl|r|pl|pm|sh|bash|sql|sol)$/i;

/** Source code in any language, tests included. */
export function isSourcePath(path: string): boolean {
  return CODE_EXTENSION.test(path);
}

/** A file an agent would write to do the ticket: source code that is not itself a test. */
export function isCodePath(path: string): boolean {
  return CODE_EXTENSION.test(path) && !isTestPath(path);
}
