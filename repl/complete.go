package repl

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// A completer answers readline's Tab through eval.Session.Complete, seeing
// the lines already typed of an unfinished statement, so that keyword
// arguments complete inside a call opened on an earlier line.
type completer struct {
	l *loop
}

// quitDirectives are the directives the REPL handles itself.
var quitDirectives = []string{"exit", "quit"}

// Do implements readline.AutoCompleter: line is the line being edited and
// pos the cursor (both in runes); it returns what each candidate adds
// after the cursor and how many runes before the cursor they share.
func (c *completer) Do(line []rune, pos int) (suffixes [][]rune, length int) {
	if pos < 0 || pos > len(line) {
		return nil, 0
	}
	before := string(line[:pos])
	if c.l.pending != "" && strings.TrimSpace(before) == "" {
		// Indenting a continuation line.
		return [][]rune{[]rune("    ")}, 0
	}
	// The earlier lines are joined with spaces (same byte offsets): the
	// session looks for the enclosing call only on the cursor's line.
	pending := strings.ReplaceAll(c.l.pending, "\n", " ")
	src := pending + string(line)
	cursor := len(pending) + len(before)
	start, end, found := c.l.s.Complete(src, cursor)
	if start < 0 || start > cursor || end != cursor {
		return nil, 0
	}
	matches := make([]string, len(found))
	for i, m := range found {
		matches[i] = m.Text
	}
	prefix := src[start:cursor]
	if t := strings.TrimLeft(before, " \t"); strings.HasPrefix(t, ":") && !strings.ContainsAny(t, " \t") {
		for _, d := range quitDirectives {
			if strings.HasPrefix(d, prefix) {
				matches = append(matches, d)
			}
		}
		sort.Strings(matches)
		matches = slices.Compact(matches)
	}
	for _, m := range matches {
		if rest, ok := strings.CutPrefix(m, prefix); ok {
			suffixes = append(suffixes, []rune(rest))
		}
	}
	return suffixes, utf8.RuneCountInString(prefix)
}
