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

// Complete returns the completions of the word before cursor (a byte
// offset into src) and the byte range [start, end) they replace. It
// completes directives at the start of a line (":" or "%"), policies after
// :policy, backends after :backend, help topics after :help, keyword
// arguments inside a builtin's call, and otherwise variables, functions,
// dtype names and constants.
func (s *Session) Complete(src string, cursor int) (start, end int, matches []string) {
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
			var cands []string
			switch name {
			case "policy":
				cands = append(s.PolicyNames(), "load")
			case "backend":
				cands = s.BackendNames()
			case "help":
				cands = s.helpNames()
			case "time", "timeit":
				return s.completeWord(src, cursor)
			}
			return argStart, cursor, filterPrefix(cands, prefix)
		}
		dirStart := cursor - len(body)
		return dirStart, cursor, filterPrefix(Directives(), body)
	}
	return s.completeWord(src, cursor)
}

func (s *Session) completeWord(src string, cursor int) (start, end int, matches []string) {
	start, _ = wordAt(src, cursor)
	end = cursor
	prefix := src[start:cursor]
	if afterSelector(src, start) {
		return start, end, filterPrefix(AttrNames(), prefix)
	}
	var cands []string
	if fn := enclosingCall(src[:start]); fn != "" {
		for _, kw := range Keywords(fn) {
			cands = append(cands, kw+"=")
		}
	}
	cands = append(cands, s.Vars()...)
	cands = append(cands, Functions()...)
	for n := range specialForms {
		cands = append(cands, n)
	}
	cands = append(cands, dtypes.Names()...)
	cands = append(cands, "true", "false", "inf", "nan", "None")
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

func filterPrefix(cands []string, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	// Keyword arguments first (they are the likeliest), then alphabetical.
	sort.SliceStable(out, func(i, j int) bool {
		ki, kj := strings.HasSuffix(out[i], "="), strings.HasSuffix(out[j], "=")
		if ki != kj {
			return ki
		}
		return out[i] < out[j]
	})
	return out
}

func (s *Session) helpNames() []string {
	var names []string
	for t := range helpTopics {
		names = append(names, t)
	}
	names = append(names, Functions()...)
	for n := range specialForms {
		names = append(names, n)
	}
	return names
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
