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
// 3. A dropped folder is read as the files under it, with their paths
//    (see folderFiles below): go-app's handlers run after the drop event,
//    when its entries can no longer be taken.
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
    s.dataset.state = "loading"; // the machine-readable state; the text is for people
    // Edit the text node go-app owns, so its later updates stay visible.
    var t = s.firstChild;
    if (t && t.nodeType === 3 && !t.nextSibling) t.nodeValue = "working…";
    else s.textContent = "working…";
  }

  // A reload or a close would throw the loaded results away (they live in
  // this tab only): ask first. The UI marks its root data-loaded once a
  // result is shown.
  window.addEventListener("beforeunload", function (e) {
    if (!document.querySelector(".app[data-loaded=true]")) return;
    e.preventDefault();
    e.returnValue = "";
  });

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

  // A dropped folder arrives as one pseudo-file of dataTransfer.files;
  // its content is only reachable through the drop's entries, which must be
  // taken during the event. The walk (asynchronous) gives every file under
  // it with its path ("exp/runs/r1/predictions.jsonl"), as the folder picker
  // does, so runs are named by their folder. Entries whose name starts with
  // "." (.git, .DS_Store) are left out, as on the command line.
  function entriesOf(dt) {
    var out = [], dir = false;
    var items = dt && dt.items;
    if (!items) return null;
    for (var i = 0; i < items.length; i++) {
      if (items[i].kind !== "file" || !items[i].webkitGetAsEntry) continue;
      var en = items[i].webkitGetAsEntry();
      if (!en) continue;
      if (en.isDirectory) dir = true;
      out.push(en);
    }
    return dir ? out : null;
  }

  function readAll(dirEntry) {
    // readEntries gives a folder's entries in batches (100 in Chromium)
    // until it gives none
    return new Promise(function (resolve, reject) {
      var reader = dirEntry.createReader(), all = [];
      (function next() {
        reader.readEntries(function (batch) {
          if (batch.length === 0) return resolve(all);
          all = all.concat(Array.prototype.slice.call(batch));
          next();
        }, reject);
      })();
    });
  }

  function walk(entry, out) {
    if (entry.isFile) {
      return new Promise(function (resolve, reject) {
        entry.file(function (f) {
          out.push({ file: f, name: entry.fullPath.replace(/^\/+/, "") });
          resolve();
        }, reject);
      });
    }
    if (!entry.isDirectory) return Promise.resolve();
    return readAll(entry).then(function (children) {
      children = children.filter(function (c) { return c.name.charAt(0) !== "."; });
      return Promise.all(children.map(function (c) { return walk(c, out); }));
    });
  }

  function folderFiles(entries) {
    var out = [];
    return Promise.all(entries.map(function (en) { return walk(en, out); })).then(function () {
      // lexical order of the paths, as `eval752 validate FOLDER` reads them
      out.sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; });
      return { kind: "files", files: out.map(function (x) { return x.file; }), names: out.map(function (x) { return x.name; }) };
    });
  }

  function give(act) {
    if (mounted && window.eval752Hooks.deliver) window.eval752Hooks.deliver(act);
    else pending = act;
  }

  document.addEventListener("drop", function (e) {
    e.preventDefault();
    var files = e.dataTransfer ? e.dataTransfer.files : null;
    if (!files || files.length === 0) return;
    markLoading();
    var entries = entriesOf(e.dataTransfer);
    if (entries) {
      e.eval752Folder = true; // the UI's own drop handler leaves it to us
      folderFiles(entries).then(give, function (err) {
        give({ kind: "error", message: "reading the dropped folder: " + err });
      });
      return;
    }
    if (!mounted) pending = { kind: "files", files: files };
  }, true);

  window.eval752Hooks = {
    // deliver is set by the running UI: it takes a dropped folder's files
    // ({kind: "files", files, names}) or the failure to read them
    // ({kind: "error", message}).
    deliver: null,
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
