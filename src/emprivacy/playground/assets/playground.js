// emprivacy playground: send the form, put the server's HTML in place; nothing else.
// Every figure on the page is computed by the library on the server.
"use strict";
(function () {
  const token = new URLSearchParams(window.location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const form = $("settings"), status = $("status"), error = $("error"), results = $("results");
  let answer = null, pending = null, running = false, again = false, auditWanted = false;

  function numbers(text) {
    return text.split(",").map((s) => s.trim()).filter((s) => s !== "").map(Number);
  }
  function payload() {
    const eps = [Number($("epsilon").value)].concat(numbers($("compare").value));
    return {
      text: $("text").value,
      epsilons: eps.filter((e, i) => eps.indexOf(e) === i),
      mechanism: $("mechanism").value,
      entities: $("entities").value,
      entity_epsilon: Number($("entity-epsilon").value),
      entity_policy: $("entity-policy").value.split(",").map((s) => s.trim()).filter(Boolean),
      seed: Number($("seed").value),
      perturb_stopwords: $("perturb-stopwords").checked,
    };
  }
  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
  }
  async function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Emprivacy-Token": token },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
  }
  // One job at a time: run(path, busy, done) posts the page's settings, shows the server's
  // one-line error or hands the answer to done; then the release or audit asked for
  // meanwhile runs (a click is never lost).
  async function run(path, busy, done) {
    running = true;
    status.textContent = busy;
    showError("");
    try {
      const response = await post(path, payload());
      const body = await response.json().catch(() => ({ error: "the server's answer was not JSON" }));
      if (!response.ok) {
        showError(body.error || ("error " + response.status));
        status.textContent = "";
      } else {
        done(body);
      }
    } catch (e) {
      showError("the local server did not answer (is it still running?)");
      status.textContent = "";
    } finally {
      running = false;
      if (again) { again = false; release(); }
      else if (auditWanted) { auditWanted = false; audit(); }
    }
  }
  function bump(counter) {
    document.body.dataset[counter] = String(Number(document.body.dataset[counter] || 0) + 1);
  }
  async function audit() {
    if (running) {  // a release is running: the audit follows it
      auditWanted = true;
      status.textContent = "Audit queued after this release…";
      return;
    }
    await run("api/audit", "Auditing… (a few seconds per ε)", (body) => {
      $("audit").innerHTML = body.html;
      status.textContent = "Audited in " + body.seconds.toFixed(1) + " s.";
      bump("audited");
    });
  }
  async function release() {
    if (running) { again = true; return; }
    await run("api/release", "Releasing…", (body) => {
      answer = body;
      results.innerHTML = body.html;
      status.textContent = "Released at ε = " + body.releases.map((r) => r.epsilon).join(", ") +
        " in " + body.seconds.toFixed(2) + " s.";
      bump("released");
    });
  }
  function later() {
    clearTimeout(pending);
    pending = setTimeout(release, 250);
  }
  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type: type }));
    const a = document.createElement("a");
    a.href = url; a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  async function copy(text, what) {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = what + " copied.";
    } catch (e) {
      status.textContent = what + " shown below the release (the clipboard is not available).";
    }
  }
  results.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !answer) return;
    const r = answer.releases[Number(button.dataset.index)];
    const name = "release-eps" + r.epsilon;
    if (button.classList.contains("copy-command")) copy(r.command, "Command");
    else if (button.classList.contains("copy-python")) copy(r.python, "Python call");
    else if (button.classList.contains("download-text")) download(name + ".txt", r.text + "\n", "text/plain");
    else if (button.classList.contains("download-jsonl")) download(name + ".jsonl", r.jsonl, "application/jsonl");
  });
  function loadFile(file) {
    if (!file) return;
    file.text().then((content) => {
      if (file.name.toLowerCase().endsWith(".jsonl")) {
        const first = content.split("\n").find((line) => line.trim() !== "");
        try {
          const record = JSON.parse(first || "{}");
          if (typeof record.text !== "string") throw new Error("no text");
          $("text").value = record.text;
        } catch (e) {
          showError(file.name + ": the first line is not a JSON record with a \"text\" string");
          return;
        }
      } else {
        $("text").value = content;
      }
      release();
    });
  }
  const text = $("text");
  text.addEventListener("dragover", (e) => { e.preventDefault(); text.classList.add("dragging"); });
  text.addEventListener("dragleave", () => text.classList.remove("dragging"));
  text.addEventListener("drop", (e) => {
    e.preventDefault(); text.classList.remove("dragging");
    loadFile(e.dataTransfer.files[0]);
  });
  $("file").addEventListener("change", (e) => loadFile(e.target.files[0]));
  $("epsilon").addEventListener("input", () => { $("epsilon-value").textContent = $("epsilon").value; });
  $("epsilon").addEventListener("change", later);
  $("mechanism").addEventListener("change", () => {
    for (const ul of document.querySelectorAll(".marks")) ul.hidden = ul.dataset.mechanism !== $("mechanism").value;
    later();
  });
  for (const id of ["entities", "seed", "perturb-stopwords"]) $(id).addEventListener("change", later);
  form.addEventListener("submit", (e) => { e.preventDefault(); release(); });
  $("audit-button").addEventListener("click", audit);
  if (text.value.trim() !== "") release();
})();
