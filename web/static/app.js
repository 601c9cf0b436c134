// The tensorsh playground page. The evaluator is Go compiled to
// WebAssembly (tensorsh.wasm, web/wasm): it does the work and renders
// values as the Jupyter kernel does; this script only places the outputs
// and drives the input (history, multi-line editing, completion), the
// policy switcher, the lessons and share links.
"use strict";

const t0 = performance.now();
const $ = (id) => document.getElementById(id);
const transcript = $("transcript"), input = $("input"), prompt = $("prompt");
const policySel = $("policy"), lessonSel = $("lesson"), completions = $("completions");

// page is what the browser test (web/browser_test.go) reads.
const page = window.tensorshPage = { ready: false, busy: 0, cells: [], stats: {} };
let api = null;              // globalThis.tensorsh once the wasm started
let startPolicy = "jax";     // the policy the share link starts from
let history = [];
try { history = JSON.parse(localStorage.getItem("tensorsh.history") || "[]"); } catch (e) { history = []; }
let histPos = history.length, draft = "";

// parseFragment reads #policy=NAME&code=URL-ENCODED. '+' stays '+'.
function parseFragment() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    const k = i < 0 ? part : part.slice(0, i), v = i < 0 ? "" : part.slice(i + 1);
    try { out[decodeURIComponent(k)] = decodeURIComponent(v); } catch (e) { out[k] = v; }
  }
  return out;
}

function shareLink() {
  const code = page.cells.join("\n");
  return location.href.replace(/#.*$/, "") + "#policy=" + encodeURIComponent(startPolicy) +
    "&code=" + encodeURIComponent(code);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function setPolicy(name) {
  prompt.textContent = name + ">";
  if (![...policySel.options].some((o) => o.value === name)) fillPolicies();
  policySel.value = name;
}

function fillPolicies() {
  const st = JSON.parse(api.state());
  policySel.textContent = "";
  for (const p of st.policies) {
    const o = el("option", "", p.name);
    o.value = p.name;
    o.title = p.title;
    policySel.append(o);
  }
  return st;
}

// run evaluates one cell and appends it with its outputs.
async function run(code, record = true) {
  const cell = el("div", "cell");
  const src = el("pre", "src", code);
  src.dataset.prompt = prompt.textContent;
  cell.append(src);
  const out = el("div", "out");
  cell.append(out);
  transcript.append(cell);
  page.busy++;
  const t = performance.now();
  const res = JSON.parse(await api.run(code));
  const ms = performance.now() - t;
  page.busy--;
  if (record) page.cells.push(code);
  for (const it of res.items) out.append(render(it));
  const note = el("span", "ms", ms < 10 ? ms.toFixed(1) + " ms" : Math.round(ms) + " ms");
  note.title = "time in the page (evaluation " + res.ms.toFixed(2) + " ms)";
  cell.append(note);
  cell.dataset.ms = ms.toFixed(3);
  setPolicy(res.policy);
  if (page.stats.firstAnswerMs === undefined) page.stats.firstAnswerMs = performance.now() - t0;
  cell.scrollIntoView({ block: "end" });
  return cell;
}

function render(it) {
  const d = el("div", "item " + it.kind);
  if (it.svg) {
    d.classList.add("svg");
    d.innerHTML = it.svg;          // drawn by the session (internal/teach)
  } else if (it.html) {
    d.classList.add("html");
    d.innerHTML = it.html;         // rendered by the session (internal/format)
  } else {
    const pre = el("pre", it.kind, it.text);
    if (it.kind === "value") {
      // The last line of a tensor's text is its type line (f32?[3] cpu).
      const i = it.text.lastIndexOf("\n");
      if (i >= 0) {
        pre.textContent = it.text.slice(0, i + 1);
        pre.append(el("span", "typeline", it.text.slice(i + 1)));
      }
    }
    d.append(pre);
  }
  return d;
}

async function runCells(cells) {
  for (const c of cells) await run(c);
}

function clearTranscript() {
  transcript.textContent = "";
  page.cells = [];
}

// ---- the input: Enter runs a complete cell, Shift-Enter adds a line,
// Tab completes, ↑/↓ on the first/last line walk the history.
function grow() {
  input.rows = Math.min(20, input.value.split("\n").length);
}

async function submit() {
  const code = input.value;
  if (!code.trim()) return;
  if (history[history.length - 1] !== code) history.push(code);
  if (history.length > 500) history = history.slice(-500);
  try { localStorage.setItem("tensorsh.history", JSON.stringify(history)); } catch (e) { /* private mode */ }
  histPos = history.length;
  input.value = "";
  grow();
  await run(code);
}

function insert(text) {
  const s = input.selectionStart, e = input.selectionEnd;
  input.setRangeText(text, s, e, "end");
  grow();
}

let comp = null; // {start, end, matches, sel}

function hideCompletions() {
  comp = null;
  completions.hidden = true;
  completions.textContent = "";
}

function accept(m) {
  input.setRangeText(m, comp.start, comp.end, "end");
  hideCompletions();
  grow();
}

function complete() {
  const c = JSON.parse(api.complete(input.value, input.selectionStart));
  if (!c.matches || c.matches.length === 0) { hideCompletions(); return; }
  comp = { start: c.start, end: c.end, matches: c.matches, sel: 0 };
  if (c.matches.length === 1) { accept(c.matches[0]); return; }
  // Insert the common prefix, list the rest.
  let pre = c.matches[0];
  for (const m of c.matches) while (!m.startsWith(pre)) pre = pre.slice(0, -1);
  if (pre.length > c.end - c.start) {
    input.setRangeText(pre, c.start, c.end, "end");
    comp.end = c.start + pre.length;
  }
  completions.textContent = "";
  c.matches.forEach((m, i) => {
    const li = el("li", i === 0 ? "sel" : "", m);
    li.addEventListener("mousedown", (ev) => { ev.preventDefault(); accept(m); });
    completions.append(li);
  });
  completions.hidden = false;
}

function moveSel(d) {
  const items = completions.children;
  items[comp.sel].classList.remove("sel");
  comp.sel = (comp.sel + d + items.length) % items.length;
  items[comp.sel].classList.add("sel");
  items[comp.sel].scrollIntoView({ block: "nearest" });
}

input.addEventListener("keydown", (ev) => {
  if (comp) {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") { ev.preventDefault(); moveSel(ev.key === "ArrowDown" ? 1 : -1); return; }
    if (ev.key === "Enter" || ev.key === "Tab") { ev.preventDefault(); accept(comp.matches[comp.sel]); return; }
    if (ev.key === "Escape") { ev.preventDefault(); hideCompletions(); return; }
    hideCompletions();
  }
  if (ev.key === "Tab" && !ev.shiftKey) {
    ev.preventDefault();
    complete();
  } else if (ev.key === "Enter" && !ev.shiftKey) {
    ev.preventDefault();
    const st = JSON.parse(api.isComplete(input.value));
    if (st.status === "incomplete") {
      insert("\n" + st.indent);
    } else {
      submit();
    }
  } else if (ev.key === "Enter") {
    ev.preventDefault();
    insert("\n");
  } else if (ev.key === "ArrowUp" && !input.value.slice(0, input.selectionStart).includes("\n")) {
    if (histPos === 0) return;
    ev.preventDefault();
    if (histPos === history.length) draft = input.value;
    input.value = history[--histPos];
    grow();
  } else if (ev.key === "ArrowDown" && !input.value.slice(input.selectionEnd).includes("\n")) {
    if (histPos >= history.length) return;
    ev.preventDefault();
    histPos++;
    input.value = histPos === history.length ? draft : history[histPos];
    grow();
  }
});
input.addEventListener("input", grow);
input.addEventListener("blur", hideCompletions);

// ---- the controls
policySel.addEventListener("change", () => { run(":policy " + policySel.value); input.focus(); });
$("help").addEventListener("click", () => run(":help"));
$("reset").addEventListener("click", () => {
  const err = api.reset(policySel.value);
  if (err) { transcript.append(render({ kind: "error", text: err })); return; }
  startPolicy = policySel.value;
  clearTranscript();
  setPolicy(startPolicy);
  window.history.replaceState(null, "", location.pathname + location.search);
});
$("share").addEventListener("click", async () => {
  const link = shareLink();
  window.history.replaceState(null, "", link);
  const note = $("linknote");
  note.textContent = "share link (in the address bar" + ((await copy(link)) ? ", copied" : "") + "): ";
  const a = el("a", "", link.length > 120 ? link.slice(0, 117) + "…" : link);
  a.href = link;
  note.append(a);
  note.hidden = false;
});
async function copy(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (e) { return false; }
}
lessonSel.addEventListener("change", async () => {
  const l = page.lessons.find((x) => x.name === lessonSel.value);
  lessonSel.value = "";
  if (!l) return;
  api.reset("jax");
  startPolicy = "jax";
  clearTranscript();
  setPolicy("jax");
  const h = el("div", "note", "lesson " + l.name + ": " + l.title);
  transcript.append(h);
  await runCells(l.cells);
});
$("file").addEventListener("change", async (ev) => {
  for (const f of ev.target.files) {
    api.addFile(f.name, await f.text());
    const cmd = f.name.endsWith(".go") ? ":policy load " + f.name : ":load " + f.name;
    transcript.append(render({ kind: "text", text: "added " + f.name + " to the page: " + cmd }));
  }
  ev.target.value = "";
});

// ---- start
window.tensorshReady = async () => {
  api = globalThis.tensorsh;
  page.stats.wasmStartMs = performance.now() - t0;
  $("loading").remove();
  if (api.startError) transcript.append(render({ kind: "error", text: "share link: " + api.startError }));
  const st = fillPolicies();
  page.lessons = st.lessons;
  for (const l of st.lessons) {
    const o = el("option", "", l.name + " — " + l.title);
    o.value = l.name;
    lessonSel.append(o);
  }
  startPolicy = st.policy;
  setPolicy(st.policy);
  for (const b of document.querySelectorAll("button, select, textarea")) b.disabled = false;
  const frag = parseFragment();
  if (frag.code) {
    const cells = JSON.parse(api.cells(frag.code));
    await runCells(cells);
  }
  page.stats.readyMs = performance.now() - t0;
  page.ready = true;
  input.focus();
};

// A share link pasted into the address bar of an open page changes only
// the fragment: start over with its policy and code.
window.addEventListener("hashchange", async () => {
  const frag = parseFragment();
  if (!api || !frag.code) return;
  const policy = frag.policy || "jax";
  const err = api.reset(policy);
  if (err) { transcript.append(render({ kind: "error", text: "share link: " + err })); return; }
  startPolicy = policy;
  clearTranscript();
  setPolicy(policy);
  page.ready = false;
  await runCells(JSON.parse(api.cells(frag.code)));
  page.ready = true;
});

(async () => {
  const frag = parseFragment();
  if (frag.policy) globalThis.tensorshPolicy = frag.policy;
  const go = new Go();
  let inst;
  try {
    const resp = fetch("tensorsh.wasm");
    if (WebAssembly.instantiateStreaming) {
      inst = (await WebAssembly.instantiateStreaming(resp, go.importObject)).instance;
    } else {
      inst = (await WebAssembly.instantiate(await (await resp).arrayBuffer(), go.importObject)).instance;
    }
  } catch (e) {
    $("loading").textContent = "could not load the evaluator (tensorsh.wasm): " + e;
    $("loading").className = "error";
    return;
  }
  page.stats.wasmLoadMs = performance.now() - t0;
  go.run(inst);
})();
