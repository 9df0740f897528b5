"use strict";
// Passkeys (WebAuthn): «Logg inn med passnøkkel» on the sign-in page, and «Legg til passnøkkel»
// under «Enheter». Shown only where the browser has passkeys. The server checks every answer.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.PublicKeyCredential || !navigator.credentials) return;
  const norwegian = document.documentElement.lang === "nb";
  const bytes = text => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), c => c.charCodeAt(0));
  const text = buffer => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const csrf = document.querySelector("meta[name=csrf-token]");
  const post = async (path, body) => {
    const headers = {"Content-Type": "application/json"};
    if (csrf) headers["X-CSRF-Token"] = csrf.content;
    const answer = await fetch(path, {method: "POST", headers, body: JSON.stringify(body || {}), credentials: "same-origin"});
    const json = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(json.message || (norwegian ? "Noe gikk galt." : "Something went wrong."));
    return json;
  };
  const say = (problem, message) => {
    problem.textContent = message;
    problem.hidden = false;
  };

  const signIn = document.getElementById("passkey-signin");
  if (signIn) {
    const problem = document.getElementById("passkey-problem");
    signIn.hidden = false;
    signIn.addEventListener("click", async () => {
      problem.hidden = true;
      try {
        const start = await post("/login/passkey/start");
        const credential = await navigator.credentials.get({publicKey: {
          challenge: bytes(start.challenge), rpId: start.rpID, userVerification: "preferred", timeout: 60000}});
        const done = await post("/login/passkey", {
          flow: start.flow, id: text(credential.rawId), clientDataJSON: text(credential.response.clientDataJSON),
          authenticatorData: text(credential.response.authenticatorData), signature: text(credential.response.signature)});
        window.location.assign(done.location);
      } catch (error) {
        say(problem, error.name === "NotAllowedError"
          ? (norwegian ? "Innloggingen med passnøkkel ble avbrutt. Prøv igjen, eller bruk navn og passord."
                       : "Signing in with a passkey was cancelled. Try again, or use name and password.")
          : error.message);
      }
    });
  }

  const add = document.getElementById("passkey-add");
  if (add) {
    const problem = document.getElementById("passkey-add-problem");
    add.hidden = false;
    add.addEventListener("click", async () => {
      problem.hidden = true;
      try {
        const start = await post("/passkey/ny/start");
        const credential = await navigator.credentials.create({publicKey: {
          challenge: bytes(start.challenge), rp: {id: start.rpID, name: start.rpName},
          user: {id: bytes(start.userID), name: start.userName, displayName: start.userName},
          pubKeyCredParams: [{type: "public-key", alg: -7}], attestation: "none", timeout: 60000,
          authenticatorSelection: {residentKey: "required", userVerification: "preferred"}}});
        const done = await post("/passkey/ny", {
          flow: start.flow, clientDataJSON: text(credential.response.clientDataJSON),
          attestationObject: text(credential.response.attestationObject)});
        window.location.assign(done.location);
      } catch (error) {
        say(problem, error.name === "NotAllowedError"
          ? (norwegian ? "Passnøkkelen ble ikke laget (avbrutt)." : "The passkey was not made (cancelled).")
          : error.name === "SecurityError"
          ? (norwegian ? "Passnøkler virker bare når Arkivator åpnes med et navn (for eksempel localhost eller arkiv.lan), ikke med en IP-adresse."
                       : "Passkeys work only when Arkivator is opened by a name (for example localhost or arkiv.lan), not by an IP address.")
          : error.message);
      }
    });
  }
});
