package browser

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissingBrowser runs a test that needs a browser in a child process
// with TENSORSH_CHROMIUM naming no executable: it skips, and fails under
// CI=true (.ci/run installs chromium).
func TestMissingBrowser(t *testing.T) {
	if os.Getenv("BROWSER_CHILD") == "1" {
		New(t, 100, 100)
		t.Fatal("New returned without a browser")
	}
	for _, tc := range []struct {
		ci   string
		want string
		fail bool
	}{
		{"", "--- SKIP: TestMissingBrowser", false},
		{"true", "--- FAIL: TestMissingBrowser", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingBrowser$", "-test.v")
		cmd.Env = append(os.Environ(), "BROWSER_CHILD=1", "CI="+tc.ci, "TENSORSH_CHROMIUM=/nonexistent/chromium")
		out, err := cmd.CombinedOutput()
		if (err != nil) != tc.fail || !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "apt-get install chromium") {
			t.Errorf("CI=%q: err %v, output:\n%s", tc.ci, err, out)
		}
	}
}
