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
//   - a func Promote;
//   - the package is renamed main, so that the interpreter's own helper
//     code, appended at the end, shares its scope;
//   - every function body starts by counting its call depth, and every
//     loop body by checking the time limit now and then (both on the line
//     of the opening brace, so line numbers stay right; fixPositions
//     corrects columns in messages).
func parseSource(file string, src []byte) (*source, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			return nil, fmt.Errorf("%v", list[0])
		}
		return nil, err
	}
	pos := func(p token.Pos) string { return fset.Position(p).String() }
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
	guard := "tensorshEnter__(); defer tensorshLeave__(); "
	tick := "tensorshTick__(); "
	at := func(lbrace token.Pos, text string) {
		p := fset.Position(lbrace)
		ins = append(ins, insert{p.Offset + 1, text, p.Line, p.Column + 1})
	}
	var walkErr error
	refuse := func(p token.Pos, what, why string) {
		if walkErr == nil {
			walkErr = fmt.Errorf("%s: %s are not allowed in a user policy (%s)", pos(p), what, why)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			refuse(n.Go, "go statements", "a goroutine could outlive the call")
		case *ast.SelectStmt:
			refuse(n.Select, "select statements", "with no goroutines, channels can only block")
		case *ast.SendStmt:
			refuse(n.Arrow, "channel operations", "with no goroutines, channels can only block")
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				refuse(n.OpPos, "channel operations", "with no goroutines, channels can only block")
			}
		case *ast.ChanType:
			refuse(n.Begin, "channels", "with no goroutines, channels can only block")
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				refuse(n.TokPos, "goto statements", "loops are written with for")
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "recover" {
				refuse(id.NamePos, "calls of recover", "tensorsh stops a policy that runs too long or too deep with a panic")
			}
		case *ast.FuncDecl:
			if n.Body != nil {
				at(n.Body.Lbrace, guard)
			}
		case *ast.FuncLit:
			at(n.Body.Lbrace, guard)
		case *ast.ForStmt:
			at(n.Body.Lbrace, tick)
		case *ast.RangeStmt:
			at(n.Body.Lbrace, tick)
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

	// Insert from the end, so that offsets stay right; then make the
	// package clause (which comes before every body) "package main".
	name := fset.Position(f.Name.Pos())
	nameStart := name.Offset
	nameEnd := nameStart + len(f.Name.Name)
	sort.Slice(ins, func(i, j int) bool { return ins[i].off > ins[j].off })
	text := string(src)
	s.shifts = map[int][]shift{}
	for _, in := range ins {
		text = text[:in.off] + in.s + text[in.off:]
		s.shifts[in.line] = append([]shift{{in.col, len(in.s)}}, s.shifts[in.line]...)
	}
	clause := "main; import tensorshrt__ \"tensorshrt\""
	text = text[:nameStart] + clause + text[nameEnd:]
	s.shifts[name.Line] = append([]shift{{name.Column + len(f.Name.Name), len(clause) - len(f.Name.Name)}}, s.shifts[name.Line]...)

	q := s.tensors
	if q != "" {
		q += "."
	}
	text += fmt.Sprintf(`

// Added by tensorsh: the interpreter's arguments and results, the call
// depth guard, and the time limit, checked in every call and loop.
var (
	tensorshA__, tensorshB__, tensorshOut__ %[1]sType
	tensorshErr__                           error
	tensorshKind__                          %[1]sKind
	tensorshDTypes__                        []%[1]sDType
	tensorshDepth__, tensorshTicks__        int
)

func tensorshEnter__() {
	tensorshDepth__++
	if tensorshDepth__ > %[2]d {
		panic("calls nested more than %[2]d deep (endless recursion?)")
	}
	tensorshTick__()
}

func tensorshLeave__() { tensorshDepth__-- }

func tensorshTick__() {
	tensorshTicks__++
	if tensorshTicks__%%64 == 0 {
		tensorshrt__.Check()
	}
}
`, q, maxDepth)
	s.text = text
	return s, nil
}
