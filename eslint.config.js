// One linter for the whole project (`npm run lint`): ESLint's and typescript-eslint's recommended rules
// everywhere, the React hooks rules for the web app. Formatting is Prettier's job, not ESLint's.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built output, run files, and the task repos, fixtures and examples that agents are given as they are.
    ignores: ['**/dist/', 'coverage/', 'test-results/', 'runs/', 'fixtures/', 'tasks/', 'examples/', '.holdfast/', 'packages/lab/{tasks,fixtures,runs}/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { field: _field, ...rest } = value` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // The hook's loader and its cache warmer are CommonJS: they load the bundled hook through require,
    // with V8's code cache, which an ES module import cannot use.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['packages/app/web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // It only says the React Compiler would skip a component; the build does not run that compiler.
      'react-hooks/incompatible-library': 'off',
    },
  },
);
