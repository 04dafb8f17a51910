// The lint toolchain, resolved from this workspace so that typescript-eslint loads the TypeScript 6
// compiler API installed here (its parser imports `typescript`; the project's own TypeScript 7 is a
// native `tsc` with no JavaScript API). The rules themselves are in the root eslint.config.js.
export { default as js } from '@eslint/js';
export { default as tseslint } from 'typescript-eslint';
