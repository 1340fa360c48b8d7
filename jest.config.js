// Jest for the JS package in Node (`npm test` runs it with --experimental-vm-modules for ESM).
// tests/browser has its own config (a real browser), so it is not matched here.
export default {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/js'],
  testMatch: ['<rootDir>/tests/js/**/*.test.js'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/browser/'],
  transform: {},
  testTimeout: 60000,
};
