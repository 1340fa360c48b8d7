// Package suite: `npm pack`s the project, installs the tarball into fresh temporary projects and uses it
// as outsiders do — Node ESM, the bin, a TypeScript consumer, and a Vite-built app in headless Chromium.
// Run: node --experimental-vm-modules node_modules/jest/bin/jest.js --config tests/package/jest.config.js
// (FXWASM_SKIP_BUILD=1 packs the web/dist/ already there instead of running scripts/build-wasm.sh first.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export default {
  rootDir: path.resolve(here, '..', '..'),
  roots: ['<rootDir>/tests/package'],
  testMatch: ['<rootDir>/tests/package/**/*.test.js'],
  testEnvironment: 'node',
  transform: {},
  maxWorkers: 1,
  testTimeout: 300000,
};
