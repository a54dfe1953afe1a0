// eval752 core worker. The page posts File/Blob objects here; the Go core
// (worker.wasm: loading, validation, scoring — no UI code) reads them lazily
// with FileReaderSync and posts back progress and the result. Running the
// core here keeps the page responsive: Go WebAssembly only yields to the
// browser when all its goroutines block.
//
// Messages that arrive before the Go side installs its onmessage handler
// would be lost, so the Go side posts {type: "ready"} once it listens and the
// page waits for that before sending anything.
//
// The Go program never returns while it serves the page: if go.run settles
// (the Go runtime exited — "fatal error: out of memory", an unrecovered
// panic — or the WebAssembly instance trapped), the core is gone, and this
// script says so with {type: "died", message} so the page never waits for a
// result that cannot come. The last lines the runtime printed are kept to
// name the cause.
"use strict";
importScripts("wasm_exec.js");

(function () {
  // keep the tail of what the Go runtime writes (stderr and stdout go
  // through fs.writeSync in wasm_exec.js)
  var tail = "";
  var decoder = new TextDecoder("utf-8");
  var write = globalThis.fs.writeSync;
  globalThis.fs.writeSync = function (fd, buf) {
    tail = (tail + decoder.decode(buf)).slice(-4096);
    return write.call(this, fd, buf);
  };
  globalThis.eval752WorkerTail = function () { return tail; };
})();

// died describes the end of the Go core in plain words.
function died(how, code) {
  var tail = globalThis.eval752WorkerTail();
  var cause;
  if (/out of memory|cannot allocate memory|memory access out of bounds|Out of memory/i.test(tail + " " + how)) {
    cause = "it ran out of memory (a browser tab gives it at most 4 GiB)";
  } else if (/^panic:|\npanic:|fatal error:/.test(tail)) {
    var m = /(?:^|\n)((?:panic|fatal error): [^\n]*)/.exec(tail);
    cause = "it crashed (" + (m ? m[1] : "a fatal error") + ")";
  } else {
    cause = how;
  }
  postMessage({ type: "died", id: 0, message: "the eval752 core stopped: " + cause + (code ? " (exit code " + code + ")" : "") });
}

(async function () {
  const go = new Go();
  let exitCode = 0;
  go.exit = (code) => { exitCode = code; };
  let result;
  try {
    const url = "worker.wasm";
    if (WebAssembly.instantiateStreaming) {
      try {
        result = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
      } catch (err) {
        // A static host that serves .wasm with a wrong Content-Type: fall back.
        const bytes = await (await fetch(url)).arrayBuffer();
        result = await WebAssembly.instantiate(bytes, go.importObject);
      }
    } else {
      const bytes = await (await fetch(url)).arrayBuffer();
      result = await WebAssembly.instantiate(bytes, go.importObject);
    }
  } catch (err) {
    postMessage({ type: "error", id: 0, message: "loading the eval752 core failed: " + err });
    return;
  }
  try {
    await go.run(result.instance);
    died("its Go runtime exited", exitCode);
  } catch (err) {
    died("its WebAssembly instance failed: " + err, exitCode);
  }
})();

// A JavaScript error outside the Go core (it also reaches the page's
// worker.onerror, which says so too).
self.addEventListener("unhandledrejection", function (e) {
  died("a JavaScript error: " + (e.reason && e.reason.message ? e.reason.message : e.reason), 0);
});
