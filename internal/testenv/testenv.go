// Package testenv lets a test report that a real dependency it drives (a
// program such as g++ or tmux, a Python module such as jupyter_client) is
// missing. On a developer's machine the test skips and says what to
// install; under CI (CI=true), where .ci/run installs every dependency, it
// fails, so that a package missing from CI can never turn a test into a
// silent skip.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// InCI reports whether the tests run under CI: CI is "true" or "1", as
// CI systems set it.
func InCI() bool {
	v := os.Getenv("CI")
	return v == "true" || v == "1"
}

// Missing skips t with the message, or fails it under CI.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("%s (CI=true: .ci/run installs this dependency, so its absence is a failure)", msg)
	}
	t.Skip(msg)
}
