"use strict";
// The browser's own store (IndexedDB) for what must not be lost before the server has it: the
// tray's pages (the files themselves, in the tray's order) and how far a send had come (which
// upload, which pages it has acknowledged). A reload, a closed tab or a phone that drops the page
// while the camera is open finds them again. Where the browser keeps nothing (a private window
// that refuses), everything still works, only without surviving a reload. The service worker
// (sw.js) reads it too, to put what the phone's share sheet sends in the tray.
(function (scope) {
  let opening = null;
  function open() {
    if (!scope.indexedDB) return Promise.reject(new Error("no IndexedDB"));
    opening = opening || new Promise((resolve, reject) => {
      const request = indexedDB.open("arkivator", 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore("pages", { keyPath: "key" });
        request.result.createObjectStore("sending", { keyPath: "name" });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opening;
  }

  // One transaction on `name`; `work` gets the store and may return a request whose result is wanted.
  function run(name, mode, work) {
    return open().then((db) => new Promise((resolve, reject) => {
      const transaction = db.transaction(name, mode);
      const request = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    })).catch(() => undefined);
  }

  scope.arkivatorKeep = {
    // Files added last in the tray (from the share sheet); how many.
    appendFiles(files) {
      return run("pages", "readwrite", (store) => {
        const all = store.getAll();
        all.onsuccess = () => {
          const rows = all.result || [];
          let key = rows.reduce((most, row) => Math.max(most, row.key), 0);
          let position = rows.reduce((most, row) => Math.max(most, row.position + 1), 0);
          for (const file of files) store.put({ key: ++key, name: file.name || "delt", type: file.type, blob: file, position: position++ });
        };
      }).then(() => files.length);
    },
    // The tray's pages, each { key, name, type, blob, position }, written anew in the tray's order.
    savePages(pages) {
      return run("pages", "readwrite", (store) => {
        store.clear();
        pages.forEach((page, position) => store.put({ key: page.key, name: page.file.name, type: page.file.type,
                                                      blob: page.file, position }));
      });
    },
    loadPages() {
      return run("pages", "readonly", (store) => store.getAll())
        .then((rows) => (rows || []).sort((a, b) => a.position - b.position));
    },
    // How far the send of the tray's pages has come: { name: "send", uploads: { [pageKey]: { id, acknowledged } } }.
    saveSend(record) {
      return run("sending", "readwrite", (store) => store.put(Object.assign({ name: "send" }, record)));
    },
    loadSend() {
      return run("sending", "readonly", (store) => store.get("send"));
    },
    clearSend() {
      return run("sending", "readwrite", (store) => store.delete("send"));
    },
  };
})(typeof window !== "undefined" ? window : self);
