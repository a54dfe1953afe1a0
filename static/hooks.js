// eval752 early-action hooks. Loaded as a plain (blocking) same-origin script
// in <head>, before the page's WebAssembly UI runs, so two things that go-app
// cannot do by itself work:
//
// 1. Actions before the UI is mounted are kept, not lost. The server
//    pre-renders the page, so the drop zone exists ~0.05 s after navigation,
//    but the WASM UI needs ~1 s to start and then replaces that DOM. A drop
//    in that window is recorded here (the latest one wins) and the UI takes
//    it when it mounts (eval752Hooks.take()). The file input and the demo
//    button are drawn only by the running UI (a pre-rendered node would be
//    replaced under a caller that resolved it), so their events arrive
//    after the mount; the listeners below still cover them.
// 2. The status never reads a stale "ready". go-app handles events
//    asynchronously, so right after new files are given the old status and
//    counts would still show. The capture-phase listeners below set the
//    status text to "loading" synchronously; go-app's own renders then write
//    its states over it (it edits the same text node), ending at "ready".
//
// Nothing here reads or sends file contents: File objects are only kept in
// memory until the UI takes them.
(function () {
  "use strict";
  var mounted = false;
  var pending = null; // {kind: "files", files: FileList} | {kind: "demo"}

  function markLoading() {
    var s = document.querySelector("[data-test=status]");
    if (!s) return;
    // Edit the text node go-app owns, so its later updates stay visible.
    var t = s.firstChild;
    if (t && t.nodeType === 3 && !t.nextSibling) t.nodeValue = "loading";
    else s.textContent = "loading";
  }

  document.addEventListener("change", function (e) {
    var el = e.target;
    if (!el || !el.matches || !el.matches("[data-test=file-input], [data-test=folder-input]")) return;
    if (!el.files || el.files.length === 0) return;
    markLoading();
    if (!mounted) pending = { kind: "files", files: el.files };
  }, true);

  document.addEventListener("click", function (e) {
    var el = e.target && e.target.closest ? e.target.closest("[data-test=demo-button]") : null;
    if (!el || el.disabled) return;
    markLoading();
    if (!mounted) pending = { kind: "demo" };
  }, true);

  // The page never wants the browser to open a dropped file (it would leave
  // the page): accept every drag synchronously (go-app's own handlers run
  // later, too late to cancel the browser's default).
  document.addEventListener("dragover", function (e) {
    e.preventDefault();
  }, true);

  document.addEventListener("drop", function (e) {
    e.preventDefault();
    var files = e.dataTransfer ? e.dataTransfer.files : null;
    if (!files || files.length === 0) return;
    markLoading();
    if (!mounted) pending = { kind: "files", files: files };
  }, true);

  window.eval752Hooks = {
    // take marks the UI as mounted and returns the action recorded before
    // it (or null); later actions are the UI's own.
    take: function () {
      mounted = true;
      var p = pending;
      pending = null;
      return p;
    },
  };
})();
