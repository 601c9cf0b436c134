// Load a kernelspec's kernel.js as the classic Notebook does (a RequireJS
// module given CodeMirror, whose onload it calls), then run the mode it
// defines over the lines on stdin, as CodeMirror's runMode does, and print
// each line's tokens as JSON: [[text, style], ...].
//
// Usage: node kerneljs.cjs KERNEL_JS < source
//
// StringStream below has the part of CodeMirror's StringStream
// (src/util/StringStream.js) that modes use.
"use strict";
const fs = require("fs");

const CodeMirror = {modes: {}, mimeModes: {}};
CodeMirror.defineMode = (name, mode) => { CodeMirror.modes[name] = mode; };
CodeMirror.defineMIME = (mime, spec) => { CodeMirror.mimeModes[mime] = spec; };

let kernelModule;
global.define = (deps, factory) => {
  if (JSON.stringify(deps) !== JSON.stringify(["codemirror/lib/codemirror"])) {
    throw new Error("kernel.js depends on " + JSON.stringify(deps));
  }
  kernelModule = factory(CodeMirror);
};
global.window = {};
new Function("define", "window", fs.readFileSync(process.argv[2], "utf8"))(global.define, global.window);
if (!kernelModule || typeof kernelModule.onload !== "function") throw new Error("kernel.js has no onload");
kernelModule.onload();
if (CodeMirror.mimeModes["text/x-tensorsh"] !== "tensorsh") throw new Error("no text/x-tensorsh MIME");
const mode = CodeMirror.modes.tensorsh({indentUnit: 4}, {});

class StringStream {
  constructor(string) { this.string = string; this.pos = this.start = 0; }
  sol() { return this.pos === 0; }
  eol() { return this.pos >= this.string.length; }
  peek() { return this.string.charAt(this.pos) || undefined; }
  next() { if (this.pos < this.string.length) return this.string.charAt(this.pos++); }
  eatSpace() { const s = this.pos; while (/[\s\u00a0]/.test(this.string.charAt(this.pos))) ++this.pos; return this.pos > s; }
  skipToEnd() { this.pos = this.string.length; }
  current() { return this.string.slice(this.start, this.pos); }
  match(pattern, consume = true) {
    if (typeof pattern === "string") {
      if (this.string.slice(this.pos, this.pos + pattern.length) !== pattern) return false;
      if (consume) this.pos += pattern.length;
      return true;
    }
    const m = this.string.slice(this.pos).match(pattern);
    if (m && m.index > 0) return null;
    if (m && consume) this.pos += m[0].length;
    return m;
  }
}

const state = mode.startState();
const out = [];
for (const line of fs.readFileSync(0, "utf8").replace(/\n$/, "").split("\n")) {
  const stream = new StringStream(line), tokens = [];
  while (!stream.eol()) {
    const style = mode.token(stream, state);
    if (stream.pos === stream.start) throw new Error("mode consumed nothing at " + JSON.stringify(line.slice(stream.pos)));
    tokens.push([stream.current(), style || null]);
    stream.start = stream.pos;
  }
  out.push(tokens);
}
console.log(JSON.stringify(out));
