// Command testsum reads `go test -json` on standard input and prints what
// `go test` prints for each package (ok, FAIL, no test files), the whole
// output of every failed test, and at the end every skipped test with the
// reason it gave, so that `make test` says what it did not run. It exits 1
// when a test or a build failed, or when the input holds no result at all.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// An event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type key struct{ pkg, test string }

func main() {
	os.Exit(run(os.Stdin, os.Stdout))
}

func run(in io.Reader, out io.Writer) int {
	outputs := map[key][]string{}
	var skips []string
	failed, results := false, 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Fprintf(out, "%s\n", line) // not an event: go test's own words
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output", "build-output":
			outputs[k] = append(outputs[k], e.Output)
		case "skip":
			if e.Test != "" {
				skips = append(skips, fmt.Sprintf("%s %s: %s", e.Package, e.Test, reason(outputs[k])))
			} else {
				fmt.Fprintf(out, "?   \t%s\t[no test files]\n", e.Package)
				results++
			}
			delete(outputs, k)
		case "pass":
			if e.Test == "" {
				fmt.Fprintf(out, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
				results++
			}
			delete(outputs, k)
		case "fail", "build-fail":
			failed = true
			if e.Test != "" || e.Action == "build-fail" {
				fmt.Fprint(out, strings.Join(outputs[k], ""))
			} else {
				// The package's own output: the FAIL line and any panic.
				fmt.Fprint(out, strings.Join(outputs[k], ""))
				results++
			}
			delete(outputs, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(out, "testsum: %v\n", err)
		return 1
	}
	if len(skips) > 0 {
		sort.Strings(skips)
		fmt.Fprintf(out, "\n%d tests skipped:\n", len(skips))
		for _, s := range skips {
			fmt.Fprintf(out, "  %s\n", s)
		}
	}
	switch {
	case failed:
		fmt.Fprintln(out, "\nFAIL")
		return 1
	case results == 0:
		fmt.Fprintln(out, "testsum: no test results in the input")
		return 1
	}
	return 0
}

// reason returns the message a skipped test gave: the lines after its
// "--- SKIP" line, without the file:line prefix's indentation.
func reason(lines []string) string {
	var msg []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		msg = append(msg, l)
	}
	if len(msg) == 0 {
		return "(no reason given)"
	}
	return strings.Join(msg, " ")
}
