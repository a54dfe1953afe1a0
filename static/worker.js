// eval752 core worker. The page posts File/Blob objects here; the Go core
// (worker.wasm: loading, validation, scoring — no UI code) reads them lazily
// with FileReaderSync and posts back progress and the result. Running the
// core here keeps the page responsive: Go WebAssembly only yields to the
// browser when all its goroutines block.
//
// Messages that arrive before the Go side installs its onmessage handler
// would be lost, so the Go side posts {type: "ready"} once it listens and the
// page waits for that before sending anything.
"use strict";
importScripts("wasm_exec.js");

(async function () {
  const go = new Go();
  try {
    let result;
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
    await go.run(result.instance);
  } catch (err) {
    postMessage({ type: "error", id: 0, message: "loading the eval752 core failed: " + err });
  }
})();
