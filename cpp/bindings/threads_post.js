// --post-js of fxwasm-threads.mjs (inside the module factory). In Node, the pthread workers must not keep
// the process alive once the caller is done (Emscripten 3.1.6 does not unref them): web/src/runtime.js
// calls this once the module is ready (the workers' message listeners are attached by then, and attaching
// one refs a worker again).
Module['fxUnrefWorkers'] = function () {
  PThread.unusedWorkers.concat(PThread.runningWorkers).forEach(function (w) { if (w.unref) w.unref(); });
};

// A trap on a pthread worker reaches the main thread as the Worker's 'error' event, where Emscripten 3.1.6
// rethrows it: in Node an uncaught exception that ends the whole process. Here it is handed to `onCrash`
// instead (web/src/runtime.js); the main thread's wait on that thread ends by itself (the worker flags the
// crash in shared memory before it dies, and a waiting main thread leaves with 'unwind').
Module['fxCatchWorkerErrors'] = function (onCrash) {
  PThread.unusedWorkers.concat(PThread.runningWorkers).forEach(function (w) {
    w.onerror = function (e) { onCrash(e && e.message ? String(e.message) : String(e)); };
  });
};
