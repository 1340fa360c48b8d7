// Browser suite: the playground served in-process, driven through Debian's Chromium with playwright-core.
// Run: node --experimental-vm-modules node_modules/jest/bin/jest.js --config tests/browser/jest.config.js
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export default {
  rootDir: path.resolve(here, '..', '..'),
  roots: ['<rootDir>/tests/browser'],
  testMatch: ['<rootDir>/tests/browser/**/*.test.js'],
  testEnvironment: 'node',
  transform: {},
  // One browser at a time: the machine has 2 cores and each file starts its own Chromium.
  maxWorkers: 1,
  testTimeout: 120000,
};
