// Package browser starts a headless Chromium for tests, driven over the
// DevTools protocol by github.com/chromedp/chromedp: the playground's
// page (web/) and nbconvert's HTML export of a notebook (jupyter/) are
// checked as a browser renders them. .ci/run installs Debian's chromium;
// without it the tests skip, or fail under CI (internal/testenv).
package browser

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tensorsh/tensorsh/internal/testenv"
)

// names are the executables tried, in order; $TENSORSH_CHROMIUM names
// another.
var names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Path returns the browser's executable, or "" if there is none.
func Path() string {
	if p := os.Getenv("TENSORSH_CHROMIUM"); p != "" {
		if p, err := exec.LookPath(p); err == nil {
			return p
		}
		return ""
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless browser for t with a window of width×height
// pixels and returns a chromedp context for one tab; the browser stops
// when t ends. Without a browser, t is skipped (failed under CI).
func New(t testing.TB, width, height int) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping a test in a real browser")
	}
	path := Path()
	if path == "" {
		testenv.Missing(t, "no chromium (apt-get install chromium, or set TENSORSH_CHROMIUM to a Chromium or Chrome executable)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.WindowSize(width, height),
		// Root in a container has no user namespace for the sandbox;
		// the pages are our own.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Run starts the browser; it lives as long as ctx.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}
