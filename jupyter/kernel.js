// The tensorsh language's CodeMirror mode, for the classic Jupyter
// Notebook (Notebook 6, NbClassic): it loads kernel.js from the kernelspec
// directory as a RequireJS module and calls its onload. JupyterLab does not
// load this file; it takes language_info.codemirror_mode's "mime", R's
// mode, whose tokenizer never marks a character as an error.
//
// "tensorsh kernel install" writes this file with the dtype and function
// names of the tensorsh that installs it in place of the two empty lists.
define(["codemirror/lib/codemirror"], function (CodeMirror) {
  "use strict";

  var dtypes = wordSet(/*dtypes*/[]);
  var functions = wordSet(/*functions*/[]);
  var keywords = wordSet(["and", "or", "not"]);
  var constants = wordSet(["true", "false", "inf", "nan", "None"]);

  function wordSet(words) {
    var set = Object.create(null);
    for (var i = 0; i < words.length; i++) set[words[i]] = true;
    return set;
  }

  // A name, with the '?' that may follow it directly (f32? is one name, a
  // weak dtype).
  var name = /^[A-Za-z_][A-Za-z0-9_]*\??/;
  var number = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?[jJ]?)/;
  var operator = /^(?:\*\*|\/\/|<<|>>|<=|>=|==|!=|[-+*\/%@~&|^<>=])/;

  function tokenString(quote) {
    return function (stream, state) {
      while (!stream.eol()) {
        if (stream.match(quote)) {
          state.tokenize = tokenBase;
          return "string";
        }
        if (stream.next() === "\\") stream.next();
      }
      // A one-line string ends with its line, as the scanner says.
      if (quote.length === 1) state.tokenize = tokenBase;
      return "string";
    };
  }

  function tokenBase(stream, state) {
    if (stream.sol()) state.lineStart = true;
    if (stream.eatSpace()) return null;
    var start = state.lineStart;
    state.lineStart = false;
    // A line starting with ':' or '%' is a directive (":policy numpy",
    // "%timeit x + 1"): its name is highlighted, its argument is text.
    if (start && stream.match(/^[:%][A-Za-z_][A-Za-z0-9_]*/)) {
      state.directive = true;
      return "meta";
    }
    if (state.directive) {
      stream.skipToEnd();
      return null;
    }
    if (stream.peek() === "#") {
      stream.skipToEnd();
      return "comment";
    }
    var q = stream.match(/^(?:"""|'''|"|')/);
    if (q) {
      state.tokenize = tokenString(q[0]);
      return state.tokenize(stream, state);
    }
    if (stream.match(number)) return "number";
    var m = stream.match(name);
    if (m) {
      var word = m[0];
      if (keywords[word]) return "keyword";
      if (constants[word]) return "atom";
      if (dtypes[word.replace(/\?$/, "")]) return "type";
      if (functions[word]) return "builtin";
      return "variable";
    }
    if (stream.match(operator)) return "operator";
    // Brackets, commas and anything else: never an error, since the
    // kernel reports syntax errors with their position.
    stream.next();
    return null;
  }

  function mode() {
    return {
      startState: function () {
        return {tokenize: tokenBase, lineStart: true, directive: false};
      },
      token: function (stream, state) {
        if (stream.sol()) state.directive = false;
        return state.tokenize(stream, state);
      },
      lineComment: "#"
    };
  }

  function onload() {
    if (!Object.prototype.hasOwnProperty.call(CodeMirror.modes, "tensorsh")) {
      CodeMirror.defineMode("tensorsh", mode);
      CodeMirror.defineMIME("text/x-tensorsh", "tensorsh");
    }
    // The notebook may have set the cells' mode before this file loaded:
    // set it again now that the mode exists.
    var nb = window.Jupyter && window.Jupyter.notebook;
    var current = nb && nb.codemirror_mode;
    if (nb && current && (current.name || current) === "tensorsh") {
      nb.get_cells().forEach(function (cell) {
        if (cell.cell_type === "code") cell.code_mirror.setOption("mode", current);
      });
    }
  }

  return {onload: onload, mode: mode};
});
