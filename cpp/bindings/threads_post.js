// --post-js of fxwasm-threads.mjs (inside the module factory). In Node, the pthread workers must not keep
// the process alive once the caller is done (Emscripten 3.1.6 does not unref them): web/src/runtime.js
// calls this once the module is ready (the workers' message listeners are attached by then, and attaching
// one refs a worker again).
Module['fxUnrefWorkers'] = function () {
  PThread.unusedWorkers.concat(PThread.runningWorkers).forEach(function (w) { if (w.unref) w.unref(); });
};
