package userpolicy

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of calls in a user policy. A Go stack
// overflow kills the process and cannot be recovered, and yaegi recursion
// reaches Go's 1 GB stack limit in seconds, so every function of the file
// counts its depth and panics (a recoverable error) past this. Unwinding
// a panic through n interpreted frames takes time quadratic in n (75 ms
// for 1000 frames, 3.4 s for 8000), so the bound is low; promotion rules
// need no deep recursion.
const maxDepth = 1000

// maxSource and maxNesting bound the source of a policy. yaegi compiles
// in time quadratic in the depth of an expression (a sum of 10⁴ terms
// takes over a second), and a compilation cannot be stopped. Promotion
// rules are short.
const (
	maxSource  = 1 << 20
	maxNesting = 500
)

// The hooks a policy file may define, besides Promote.
var hookSigs = map[string]string{
	"Promote":     "func Promote(a, b tensorsh.Type) (tensorsh.Type, error)",
	"Literal":     "func Literal(k tensorsh.Kind) (tensorsh.Type, error)",
	"FloatResult": "func FloatResult(a tensorsh.Type) (tensorsh.Type, error)",
	"DTypes":      "func DTypes() []tensorsh.DType",
}

// The constants a policy file may define, and their kinds.
var constKinds = map[string]string{
	"Name": "string", "Title": "string", "Base": "string",
	"CDiv": "bool", "IntTrueDiv": "bool", "WrapLiterals": "bool",
}

// A source is a checked policy file, rewritten for the interpreter.
type source struct {
	file    string          // the file name, for messages
	text    string          // the rewritten source
	funcs   map[string]bool // top-level functions defined
	consts  map[string]bool // top-level constants and variables defined
	tensors string          // the name the file imports "tensorsh" as ("" for a dot import)
	// shifts lists, per line, where the rewriting moved columns.
	shifts map[int][]shift
}

// A shift is a change of length at a column of the original text: text
// from column col on moves by n bytes.
type shift struct{ col, n int }

var posRE = regexp.MustCompile(`(\S+?):(\d+):(\d+)`)

// fixPositions rewrites the file:line:column positions in msg from the
// rewritten text back to the user's file.
func (s *source) fixPositions(msg string) string {
	return posRE.ReplaceAllStringFunc(msg, func(m string) string {
		sub := posRE.FindStringSubmatch(m)
		if sub[1] != s.file {
			return m
		}
		line, _ := strconv.Atoi(sub[2])
		col, _ := strconv.Atoi(sub[3])
		moved := 0
		for _, sh := range s.shifts[line] { // in order of col
			if col >= sh.col+moved+max(sh.n, 0) {
				moved += sh.n
			} else if col >= sh.col+moved {
				col = sh.col + moved // inside inserted text
			}
		}
		return fmt.Sprintf("%s:%d:%d", s.file, line, col-moved)
	})
}

// parseSource checks a policy file and rewrites it for the interpreter:
//   - only the allowed imports, "tensorsh" among them;
//   - no go statements (a goroutine could outlive its call, and a panic in
//     it would end the process), channels, select, goto or recover (so the
//     panics that stop a policy cannot be caught);
//   - builtins are only called (yaegi crashes on var f = len);
//   - no generics (yaegi compiles A[A[A[…]]] in exponential time), and
//     no types of more than maxTypeParts parts written out in full;
//   - no names of tensorsh's helpers (tensorsh…__), so that the policy
//     cannot reach them;
//   - a func Promote;
//   - the package is renamed main, so that the interpreter's own helper
//     code, appended at the end, shares its scope;
//   - every function body starts by counting its call depth (on the line
//     of the opening brace, so line numbers stay right; fixPositions
//     corrects columns in messages), make checks its sizes, and panic
//     turns its value into text while the call still runs.
func parseSource(file string, src []byte) (*source, error) {
	if len(src) > maxSource {
		return nil, fmt.Errorf("%s: a user policy has at most %s of source, this one %d bytes", file, bytesString(maxSource), len(src))
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			return nil, fmt.Errorf("%v", list[0])
		}
		return nil, err
	}
	pos := func(p token.Pos) string { return fset.Position(p).String() }
	depth := 0
	var deep token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			depth--
			return true
		}
		if depth == maxNesting {
			deep = n.Pos()
			return false
		}
		depth++
		return deep == token.NoPos
	})
	if deep != token.NoPos {
		return nil, fmt.Errorf("%s: the source of a user policy nests at most %d deep", pos(deep), maxNesting)
	}
	s := &source{file: file, funcs: map[string]bool{}, consts: map[string]bool{}, tensors: "\x00"}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		ok := false
		for _, a := range allowedImports {
			ok = ok || path == a
		}
		if !ok {
			return nil, fmt.Errorf("%s: import %q is not allowed in a user policy (allowed: %s)", pos(im.Path.Pos()), path, strings.Join(allowedImports, ", "))
		}
		if path == "tensorsh" {
			switch {
			case im.Name == nil:
				s.tensors = "tensorsh"
			case im.Name.Name == "_":
				return nil, fmt.Errorf("%s: import \"tensorsh\" with a name, not _", pos(im.Pos()))
			case im.Name.Name == ".":
				s.tensors = ""
			default:
				s.tensors = im.Name.Name
			}
		}
	}
	if s.tensors == "\x00" {
		return nil, fmt.Errorf("%s: a user policy imports \"tensorsh\" and defines %s", file, hookSigs["Promote"])
	}

	// Insertions into the text: at byte offset, the string.
	type insert struct {
		off       int
		s         string
		line, col int
	}
	var ins []insert
	at := func(p token.Pos, text string) {
		q := fset.Position(p)
		ins = append(ins, insert{q.Offset, text, q.Line, q.Column})
	}
	guard := "tensorshrt__.Enter(); defer tensorshrt__.Leave(); "
	var walkErr error
	refuse := func(p token.Pos, format string, args ...any) {
		if walkErr == nil {
			walkErr = fmt.Errorf("%s: %s", pos(p), fmt.Sprintf(format, args...))
		}
	}
	notAllowed := func(p token.Pos, what, why string) {
		refuse(p, "%s are not allowed in a user policy (%s)", what, why)
	}

	// Identifiers that name no object of the file: a builtin (or another
	// predeclared name, or an imported package) unless they are a
	// selector's name, a method's name or a key of a composite literal.
	notRef := map[*ast.Ident]bool{f.Name: true}
	keys := map[*ast.Ident]bool{}
	called := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			notRef[n.Sel] = true
		case *ast.FuncDecl:
			notRef[n.Name] = true
		case *ast.ImportSpec:
			if n.Name != nil {
				notRef[n.Name] = true
			}
		case *ast.LabeledStmt:
			notRef[n.Label] = true
		case *ast.BranchStmt:
			if n.Label != nil {
				notRef[n.Label] = true
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				keys[id] = true
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				called[id] = true
			}
		}
		return true
	})
	builtin := func(id *ast.Ident) bool { return id.Obj == nil && !notRef[id] && !keys[id] }

	consts, types := newConstBits(), newTypeParts()
	ast.Inspect(f, func(n ast.Node) bool {
		checkSizes(n, refuse)
		consts.check(n, refuse)
		types.check(n, refuse)
		switch n := n.(type) {
		case *ast.Ident:
			switch {
			case reservedName(n.Name):
				refuse(n.NamePos, "the name %s is reserved for tensorsh's own helpers in a user policy", n.Name)
			case n.Name == "recover" && (builtin(n) || keys[n] && n.Obj == nil):
				notAllowed(n.NamePos, "recover and its calls", "tensorsh stops a policy that runs too long, too deep or allocates too much with a panic")
			case builtinFuncs[n.Name] && builtin(n) && !called[n]:
				refuse(n.NamePos, "%s (built-in) must be called", n.Name)
			}
		case *ast.TypeSpec:
			if n.TypeParams != nil {
				notAllowed(n.TypeParams.Opening, "generic types", "yaegi's generics can take exponential time to compile, which cannot be stopped")
			}
		case *ast.FuncType:
			if n.TypeParams != nil {
				notAllowed(n.TypeParams.Opening, "generic functions", "yaegi's generics can take exponential time to compile, which cannot be stopped")
			}
		case *ast.GoStmt:
			notAllowed(n.Go, "go statements", "a goroutine could outlive the call")
		case *ast.SelectStmt:
			notAllowed(n.Select, "select statements", "with no goroutines, channels can only block")
		case *ast.SendStmt:
			notAllowed(n.Arrow, "channel operations", "with no goroutines, channels can only block")
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				notAllowed(n.OpPos, "channel operations", "with no goroutines, channels can only block")
			}
		case *ast.ChanType:
			notAllowed(n.Begin, "channels", "with no goroutines, channels can only block")
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				notAllowed(n.TokPos, "goto statements", "loops are written with for")
			}
		case *ast.CallExpr:
			id, ok := ast.Unparen(n.Fun).(*ast.Ident)
			if !ok || !builtin(id) || n.Ellipsis.IsValid() {
				break
			}
			switch {
			case id.Name == "panic" && len(n.Args) == 1:
				// The panic value becomes its text while the call runs,
				// under the time limit: an Error or String method of
				// the policy's must not run later, outside it.
				at(n.Lparen+1, "tensorshrt__.PanicValue(")
				at(n.Rparen, ")")
			case id.Name == "print" || id.Name == "println":
				// What they write is bounded as fmt's output is.
				at(n.Lparen+1, "tensorshrt__.PrintText(")
				at(n.Rparen, ")")
			case id.Name == "make" && len(n.Args) >= 2:
				// Sizes pass through tensorshrt__.Size, which refuses
				// more than a policy may allocate.
				typ := string(src[fset.Position(n.Args[0].Pos()).Offset:fset.Position(n.Args[0].End()).Offset])
				zero := "(" + typ + ")(nil)"
				if strings.ContainsAny(typ, "\n/") { // keep lines; no comments
					zero = "nil"
				}
				for _, a := range n.Args[1:] {
					at(a.Pos(), "tensorshrt__.Size("+zero+", ")
					at(a.End(), ")")
				}
			}
		case *ast.FuncDecl:
			if n.Body != nil {
				at(n.Body.Lbrace+1, guard)
			}
		case *ast.FuncLit:
			at(n.Body.Lbrace+1, guard)
		}
		return true
	})
	if walkErr != nil {
		return nil, walkErr
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				s.funcs[d.Name.Name] = true
				if d.Name.Name == "main" {
					return nil, fmt.Errorf("%s: a user policy has no func main", pos(d.Pos()))
				}
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if v, ok := spec.(*ast.ValueSpec); ok {
					for _, n := range v.Names {
						s.consts[n.Name] = true
					}
				}
			}
		}
	}
	if !s.funcs["Promote"] {
		return nil, fmt.Errorf("%s: a user policy defines %s", file, hookSigs["Promote"])
	}
	for name := range hookSigs {
		if s.consts[name] {
			return nil, fmt.Errorf("%s: %s must be a function: %s", file, name, hookSigs[name])
		}
	}
	for name := range constKinds {
		if s.funcs[name] {
			return nil, fmt.Errorf("%s: %s must be a %s constant", file, name, constKinds[name])
		}
	}

	// Make the package clause (which comes before every body) "package
	// main", then insert, in one pass (in the order they were made where
	// two are at one place, as in println()).
	name := fset.Position(f.Name.Pos())
	nameStart := name.Offset
	nameEnd := nameStart + len(f.Name.Name)
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].off < ins[j].off })
	clause := "main; import tensorshrt__ \"tensorshrt\""
	var b strings.Builder
	b.Grow(len(src) + len(clause) + 48*len(ins) + 1024)
	b.Write(src[:nameStart])
	b.WriteString(clause)
	s.shifts = map[int][]shift{name.Line: {{name.Column + len(f.Name.Name), len(clause) - len(f.Name.Name)}}}
	last := nameEnd
	for _, in := range ins {
		if in.off < last { // cannot happen: every insertion is in a declaration
			return nil, fmt.Errorf("%s: tensorsh cannot rewrite this file", file)
		}
		b.Write(src[last:in.off])
		b.WriteString(in.s)
		last = in.off
		s.shifts[in.line] = append(s.shifts[in.line], shift{in.col, len(in.s)})
	}
	b.Write(src[last:])
	text := b.String()

	q := s.tensors
	if q != "" {
		q += "."
	}
	text += fmt.Sprintf(`

// Added by tensorsh: the interpreter's arguments and results.
var (
	tensorshA__, tensorshB__, tensorshOut__ %[1]sType
	tensorshErr__                           error
	tensorshMsg__                           string
	tensorshKind__                          %[1]sKind
	tensorshDTypes__                        []%[1]sDType
)

`, q)
	s.text = text
	return s, nil
}

// reservedName reports whether name is one of those tensorsh gives its
// helpers in the interpreted file, which a policy may not write: it could
// otherwise assign them, or shadow them.
func reservedName(name string) bool {
	return strings.HasPrefix(name, "tensorsh") && strings.HasSuffix(name, "__")
}

// builtinFuncs are Go's builtin functions, which may only be called.
var builtinFuncs = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true,
	"new": true, "panic": true, "print": true, "println": true, "real": true, "recover": true,
}
