package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/lang"
)

// IsComplete classifies src for a front end: lang.Complete (run it),
// lang.Incomplete (ask for another line, indented by indent) or
// lang.Invalid (run it, to report the error). Status.String gives
// Jupyter's names.
func IsComplete(src string) (status lang.Status, indent string) {
	return lang.Check(src)
}

func isWordByte(b byte) bool {
	return b == '_' || b == '?' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// wordAt returns the bounds of the word that ends at cursor (a byte
// offset into src), extended forward to its end.
func wordAt(src string, cursor int) (start, end int) {
	cursor = max(0, min(cursor, len(src)))
	start = cursor
	for start > 0 && isWordByte(src[start-1]) {
		start--
	}
	end = cursor
	for end < len(src) && isWordByte(src[end]) {
		end++
	}
	return start, end
}

// A Match is one completion: the text that replaces the completed range,
// and what it names, for front ends that show it (Jupyter's completion
// types).
type Match struct {
	Text string
	// Kind is "keyword" (a keyword argument: "axis="), "variable",
	// "function", "method" or "attribute" (after "x."), "dtype",
	// "constant", "directive" (a directive's name, or a front end's magic
	// from Session.Magics), "policy", "backend" or "topic" (a :help topic
	// that is not a function).
	Kind string
}

// Complete returns completions for the text before cursor (a byte
// offset into src) and the byte range [start, end) they replace. It
// completes directives at the start of a line (":" or "%", and after "%"
// the front end's Magics too), policies after :policy, backends after
// :backend, help topics after :help, keyword arguments inside a builtin's
// call, attributes and methods after "x.", and otherwise variables,
// functions, dtype names and constants.
func (s *Session) Complete(src string, cursor int) (start, end int, matches []Match) {
	cursor = max(0, min(cursor, len(src)))
	lineStart := strings.LastIndexByte(src[:cursor], '\n') + 1
	line := src[lineStart:cursor]
	trimmed := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(trimmed, ":") || strings.HasPrefix(trimmed, "%") {
		body := trimmed[1:]
		if i := strings.IndexAny(body, " \t"); i >= 0 {
			// Completing a directive's argument.
			name := body[:i]
			argStart := cursor - len(strings.TrimLeft(body[i:], " \t"))
			prefix := src[argStart:cursor]
			var cands []Match
			switch name {
			case "policy":
				cands = append(matchesOf("policy", s.PolicyNames()...), Match{"load", "directive"})
			case "backend":
				cands = matchesOf("backend", s.BackendNames()...)
			case "help":
				cands = s.helpMatches()
			case "time", "timeit":
				return s.completeWord(src, cursor)
			}
			return argStart, cursor, filterPrefix(cands, prefix)
		}
		dirStart := cursor - len(body)
		cands := matchesOf("directive", Directives()...)
		if trimmed[0] == '%' {
			cands = append(cands, matchesOf("directive", s.Magics...)...)
		}
		return dirStart, cursor, filterPrefix(cands, body)
	}
	return s.completeWord(src, cursor)
}

// matchesOf returns the names as matches of one kind.
func matchesOf(kind string, names ...string) []Match {
	out := make([]Match, len(names))
	for i, n := range names {
		out[i] = Match{n, kind}
	}
	return out
}

func (s *Session) completeWord(src string, cursor int) (start, end int, matches []Match) {
	start, _ = wordAt(src, cursor)
	end = cursor
	prefix := src[start:cursor]
	if afterSelector(src, start) {
		var cands []Match
		for _, n := range AttrNames() {
			kind := "attribute"
			if attrs[n].method {
				kind = "method"
			}
			cands = append(cands, Match{n, kind})
		}
		return start, end, filterPrefix(cands, prefix)
	}
	var cands []Match
	if fn := enclosingCall(src[:start]); fn != "" {
		for _, kw := range Keywords(fn) {
			cands = append(cands, Match{kw + "=", "keyword"})
		}
	}
	// A variable hides a function or dtype of its name: it comes first.
	cands = append(cands, matchesOf("variable", s.Vars()...)...)
	cands = append(cands, matchesOf("function", Functions()...)...)
	for n := range specialForms {
		cands = append(cands, Match{n, "function"})
	}
	cands = append(cands, matchesOf("dtype", dtypes.Names()...)...)
	cands = append(cands, matchesOf("constant", "true", "false", "inf", "nan", "None")...)
	return start, end, filterPrefix(cands, prefix)
}

// enclosingCall returns the name of the function whose argument list is
// open at the end of src, or "".
func enclosingCall(src string) string {
	depth := 0
	for i := len(src) - 1; i >= 0; i-- {
		switch src[i] {
		case ')', ']':
			depth++
		case '[':
			if depth == 0 {
				return ""
			}
			depth--
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			j := i
			for j > 0 && isWordByte(src[j-1]) {
				j--
			}
			return src[j:i]
		case ';':
			// A statement boundary (newlines are not: a call may span
			// lines while its bracket is open).
			if depth == 0 {
				return ""
			}
		}
	}
	return ""
}

func filterPrefix(cands []Match, prefix string) []Match {
	seen := map[string]bool{}
	var out []Match
	for _, c := range cands {
		if strings.HasPrefix(c.Text, prefix) && !seen[c.Text] {
			seen[c.Text] = true
			out = append(out, c)
		}
	}
	// Keyword arguments first (they are the likeliest), then alphabetical.
	sort.SliceStable(out, func(i, j int) bool {
		ki, kj := out[i].Kind == "keyword", out[j].Kind == "keyword"
		if ki != kj {
			return ki
		}
		return out[i].Text < out[j].Text
	})
	return out
}

// helpMatches are the :help topics: the topics, the functions and the
// special forms.
func (s *Session) helpMatches() []Match {
	var out []Match
	for t := range helpTopics {
		out = append(out, Match{t, "topic"})
	}
	out = append(out, matchesOf("function", Functions()...)...)
	for n := range specialForms {
		out = append(out, Match{n, "function"})
	}
	return out
}

// BackendNames lists the backends :backend accepts.
func (s *Session) BackendNames() []string {
	names := []string{"cpu"}
	for n := range s.factories {
		names = append(names, n)
	}
	sort.Strings(names[1:])
	return names
}

// Inspect describes the word at cursor (a byte offset into src): a
// variable's dtype, shape and device under the active policy, a function's
// signature, doc and example, a dtype, or a policy. ok is false when there
// is nothing to say.
func (s *Session) Inspect(src string, cursor int) (text string, ok bool) {
	start, end := wordAt(src, cursor)
	if start == end && cursor > 0 {
		// Just after "f(": describe f.
		if fn := enclosingCall(src[:cursor]); fn != "" {
			start, end = cursor-len(fn)-1, cursor-1
			if start < 0 {
				return "", false
			}
		}
	}
	word := src[start:end]
	if word == "" {
		return "", false
	}
	if afterSelector(src, start) {
		return attrDoc(receiverWord(src, start), word)
	}
	if v, ok := s.vars[word]; ok {
		desc := v.Describe()
		if v.Kind == TensorValue {
			desc += " on " + v.Device
			if v.Type.Weak {
				desc += " (weak: its dtype can still give way in promotion)"
			}
		}
		return fmt.Sprintf("%s: %s\npolicy %s (%s)", word, desc, s.policy.Name(), s.policy.Title()), true
	}
	if sig, doc, ex, ok := Doc(word); ok {
		return sig + "\n    " + doc + "\nexample: " + ex, true
	}
	if sf, ok := specialForms[word]; ok {
		return sf.sig + "\n    " + sf.doc + "\nexample: " + sf.example, true
	}
	if h := Help(word); !strings.HasPrefix(h, "no help") {
		return h, true
	}
	return "", false
}
