"use strict";
// Arkivator's service worker. It keeps the app's own files (styles, scripts, icons) and the
// capture page, so the tray opens without a network and its pages wait in the browser's store
// (keep.js) until they can be sent. No letter, search or page image is ever kept here: those are
// always asked of the server. And it takes what the phone's share sheet sends («Del → Arkivator»)
// into the tray.
const CACHE = "arkivator-1";
const SHELL = ["/static/app.css", "/static/app.js", "/static/keep.js", "/static/tray.js", "/static/upload.js",
               "/static/icon-192.png", "/static/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// The tray's store (keep.js): shared files go last in the tray, then the capture page opens with them.
importScripts("/static/keep.js");

async function receiveShare(request) {
  const data = await request.formData();
  const files = data.getAll("pages").filter((file) => file && file.size > 0);
  await self.arkivatorKeep.appendFiles(files);
  return Response.redirect("/upload?delt=" + files.length, 303);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === "/del-til-arkivator") {
    event.respondWith(receiveShare(request));
    return;
  }
  if (request.method !== "GET") return;
  if (SHELL.includes(url.pathname)) {
    // The app's own files: from the network when it answers (so an update is seen), else kept.
    event.respondWith(fetch(request).then((answer) => {
      const copy = answer.clone();
      if (answer.ok) caches.open(CACHE).then((cache) => cache.put(request, copy));
      return answer;
    }).catch(() => caches.match(request)));
    return;
  }
  if (request.mode === "navigate" && url.pathname === "/upload") {
    // The capture page: kept each time it opens, shown from the store without a network.
    event.respondWith(fetch(request).then((answer) => {
      const copy = answer.clone();
      if (answer.ok && !answer.redirected) caches.open(CACHE).then((cache) => cache.put("/upload", copy));
      return answer;
    }).catch(() => caches.match("/upload").then((kept) => kept || Response.error())));
  }
});
