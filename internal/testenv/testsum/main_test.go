package main

import (
	"strings"
	"testing"
)

// TestRun feeds recorded `go test -json` events through run.
func TestRun(t *testing.T) {
	const pass = `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.1}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: tmux is not installed (apt-get install tmux)\n"}
{"Action":"output","Package":"p","Test":"TestB","Output":"--- SKIP: TestB (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestB","Elapsed":0}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.2s\n"}
{"Action":"pass","Package":"p","Elapsed":0.2}
{"Action":"skip","Package":"q","Elapsed":0}
`
	var b strings.Builder
	if code := run(strings.NewReader(pass), &b); code != 0 {
		t.Errorf("passing run: exit %d\n%s", code, b.String())
	}
	for _, want := range []string{"ok  \tp\t0.200s", "?   \tq\t[no test files]", "1 tests skipped:", "p TestB: b_test.go:9: tmux is not installed (apt-get install tmux)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("passing run: no %q in\n%s", want, b.String())
		}
	}
	const fail = `{"Action":"run","Package":"p","Test":"TestC"}
{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:3: got 1, want 2\n"}
{"Action":"output","Package":"p","Test":"TestC","Output":"--- FAIL: TestC (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestC","Elapsed":0}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.1s\n"}
{"Action":"fail","Package":"p","Elapsed":0.1}
`
	b.Reset()
	if code := run(strings.NewReader(fail), &b); code != 1 || !strings.Contains(b.String(), "got 1, want 2") || !strings.Contains(b.String(), "FAIL\tp") {
		t.Errorf("failing run: exit %d\n%s", code, b.String())
	}
	b.Reset()
	if code := run(strings.NewReader("# p\nsyntax error\n"), &b); code != 1 {
		t.Errorf("no results: exit %d\n%s", code, b.String())
	}
	const buildFail = `{"ImportPath":"p [p.test]","Action":"build-output","Output":"p/x.go:1:1: undefined: y\n"}
{"ImportPath":"p [p.test]","Action":"build-fail"}
{"Action":"start","Package":"p"}
{"Action":"output","Package":"p","Output":"FAIL\tp [build failed]\n"}
{"Action":"fail","Package":"p","Elapsed":0}
`
	b.Reset()
	if code := run(strings.NewReader(buildFail), &b); code != 1 || !strings.Contains(b.String(), "[build failed]") {
		t.Errorf("build failure: exit %d\n%s", code, b.String())
	}
}
