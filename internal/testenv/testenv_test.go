package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissing runs a test that calls Missing in a child process, with and
// without CI=true: it must skip outside CI and fail under it.
func TestMissing(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") == "1" {
		Missing(t, "no frobnicator (apt-get install frobnicator)")
		return
	}
	for _, tc := range []struct {
		ci   string
		want string
		fail bool
	}{
		{"", "--- SKIP: TestMissing", false},
		{"true", "--- FAIL: TestMissing", true},
		{"1", "--- FAIL: TestMissing", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", "CI="+tc.ci)
		out, err := cmd.CombinedOutput()
		if (err != nil) != tc.fail || !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "apt-get install frobnicator") {
			t.Errorf("CI=%q: err %v, output:\n%s", tc.ci, err, out)
		}
	}
}
