// --pre-js of fxwasm-threads.mjs (inside the module factory). Emscripten 3.1.6's Node support for pthreads
// calls require() and reads __dirname, which an ES module does not have: the main thread gets them from
// web/src/runtime.js (Module.fxRequire, made with node:module's createRequire), a pthread worker from
// fxwasm-threads.worker.cjs (a CommonJS script that puts require on its global object).
var require = Module['fxRequire'] || globalThis.require;
var __dirname = Module['fxDirname'] || '';
