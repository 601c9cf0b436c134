package jupyter

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMain runs Main and returns its status and output.
func runMain(t *testing.T, cfg Config, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cfg.Stdout, cfg.Stderr = &stdout, &stderr
	if cfg.NewEngine == nil {
		cfg.NewEngine = newSession
	}
	code := Main(args, cfg)
	return code, stdout.String(), stderr.String()
}

func readSpec(t *testing.T, dir string) KernelSpec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec KernelSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	return spec
}

func TestInstall(t *testing.T) {
	prefix := t.TempDir()
	code, out, errs := runMain(t, Config{Command: []string{"/opt/tensorsh", "kernel"}}, "install", "--prefix", prefix, "--name", "TSH-test")
	if code != 0 {
		t.Fatalf("install: %d %s", code, errs)
	}
	dir := filepath.Join(prefix, "share", "jupyter", "kernels", "tsh-test")
	if !strings.Contains(out, dir) {
		t.Errorf("output %q", out)
	}
	spec := readSpec(t, dir)
	want := KernelSpec{
		Argv:        []string{"/opt/tensorsh", "kernel", "--connection-file", "{connection_file}"},
		DisplayName: "tensorsh", Language: "tensorsh", InterruptMode: "message",
		Env: map[string]string{}, Metadata: map[string]any{},
	}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("kernel.json %+v\nwant %+v", spec, want)
	}
	for _, size := range []int{32, 64} {
		f, err := os.Open(filepath.Join(dir, "logo-"+map[int]string{32: "32x32", 64: "64x64"}[size]+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
			t.Errorf("logo %d: %v %v", size, err, img.Bounds())
			continue
		}
		// A blue cell at the top left, the orange one in the middle row,
		// transparent gaps between them.
		if r, g, b, a := img.At(size/6, size/6).RGBA(); r>>8 != 0x1f || g>>8 != 0x5f || b>>8 != 0xa8 || a>>8 != 0xff {
			t.Errorf("logo %d: top-left cell %x %x %x %x", size, r>>8, g>>8, b>>8, a>>8)
		}
		if r, _, _, _ := img.At(size*52/64, size/2).RGBA(); r>>8 != 0xc2 {
			t.Errorf("logo %d: weak cell red %x", size, r>>8)
		}
		if _, _, _, a := img.At(size*22/64, size/6).RGBA(); a != 0 {
			t.Errorf("logo %d: gap alpha %x", size, a)
		}
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "logo-svg.svg")); err != nil || !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Errorf("logo-svg.svg: %v", err)
	}

	// A policy goes into argv and the display name; reinstalling replaces.
	code, _, errs = runMain(t, Config{Command: []string{"/opt/tensorsh", "kernel"}}, "install", "--prefix", prefix, "--name", "tsh-test", "--policy", "numpy")
	spec = readSpec(t, dir)
	if code != 0 || spec.DisplayName != "tensorsh (numpy)" || strings.Join(spec.Argv[2:], " ") != "--connection-file {connection_file} --policy numpy" {
		t.Errorf("with policy: %d %s %+v", code, errs, spec)
	}
}

func TestInstallDefaults(t *testing.T) {
	data := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	// No place flag means --user; no Command means this executable.
	if code, _, errs := runMain(t, Config{}, "install"); code != 0 {
		t.Fatalf("install: %s", errs)
	}
	spec := readSpec(t, filepath.Join(data, "kernels", "tensorsh"))
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if spec.Argv[0] != exe || !filepath.IsAbs(spec.Argv[0]) || spec.Argv[1] != "kernel" {
		t.Errorf("argv %q", spec.Argv)
	}
	if code, _, _ := runMain(t, Config{}, "install", "--user", "--name", "second"); code != 0 {
		t.Error("--user")
	}
	if _, err := os.Stat(filepath.Join(data, "kernels", "second", "kernel.json")); err != nil {
		t.Error(err)
	}
}

func TestInstallErrors(t *testing.T) {
	prefix := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"install", "--prefix", prefix, "--user"}, 1, "exclude each other"},
		{[]string{"install", "--prefix", prefix, "--name", "bad name"}, 1, "invalid kernel name"},
		{[]string{"install", "--prefix", prefix, "--policy", "nosuch"}, 1, "nosuch"},
		{[]string{"install", "--prefix", prefix, "extra"}, 2, "usage"},
		{[]string{"install", "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"uninstall", "--prefix", prefix, "--name", "absent"}, 1, `no kernelspec "absent"`},
		{[]string{}, 2, "usage"},
		{[]string{"--connection-file", filepath.Join(prefix, "missing.json")}, 1, "no such file"},
	} {
		code, _, errs := runMain(t, Config{}, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: %d %q, want %d %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
	if code, out, _ := runMain(t, Config{}, "help"); code != 0 || !strings.Contains(out, "tensorsh kernel install") {
		t.Errorf("help: %d %q", code, out)
	}
	bad := filepath.Join(prefix, "bad.json")
	os.WriteFile(bad, []byte(`{"transport": "tcp", "key": "k", "signature_scheme": "hmac-md5"}`), 0o600)
	if code, _, errs := runMain(t, Config{}, "--connection-file", bad); code != 1 || !strings.Contains(errs, "hmac-md5") {
		t.Errorf("bad scheme: %d %q", code, errs)
	}
}

func TestUninstall(t *testing.T) {
	prefix := t.TempDir()
	cfg := Config{Command: []string{"/opt/tensorsh", "kernel"}}
	runMain(t, cfg, "install", "--prefix", prefix, "--name", "tsh-uninstall-test")
	dir := filepath.Join(PrefixKernelsDir(prefix), "tsh-uninstall-test")
	code, out, _ := runMain(t, cfg, "uninstall", "--prefix", prefix, "--name", "tsh-uninstall-test")
	if _, err := os.Stat(dir); code != 0 || !os.IsNotExist(err) || !strings.Contains(out, "removed") {
		t.Errorf("uninstall: %d %q %v", code, out, err)
	}
	// Without a place, every directory Jupyter searches: JUPYTER_PATH
	// first.
	runMain(t, cfg, "install", "--prefix", prefix, "--name", "tsh-uninstall-test")
	t.Setenv("JUPYTER_PATH", filepath.Join(prefix, "share", "jupyter"))
	t.Setenv("JUPYTER_DATA_DIR", t.TempDir())
	if code, out, errs := runMain(t, cfg, "uninstall", "--name", "tsh-uninstall-test"); code != 0 || !strings.Contains(out, dir) {
		t.Errorf("uninstall everywhere: %d %q %q", code, out, errs)
	}
	// Another language's kernel is never removed.
	other := filepath.Join(PrefixKernelsDir(prefix), "python3")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "kernel.json"), []byte(`{"argv": ["python3"], "language": "python"}`), 0o644)
	code, _, errs := runMain(t, cfg, "uninstall", "--prefix", prefix, "--name", "python3")
	if _, err := os.Stat(other); code != 1 || err != nil || !strings.Contains(errs, "not a tensorsh kernel") {
		t.Errorf("python3: %d %q %v", code, errs, err)
	}
}

// freePorts returns n free TCP ports on 127.0.0.1, as jupyter_client
// chooses them for a connection file.
func freePorts(t *testing.T, n int) []int {
	var ports []int
	var ls []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// TestKernelProcess runs the kernel command as a process, as Jupyter
// does, and checks SIGINT and a clean exit on shutdown.
func TestKernelProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a kernel process test")
	}
	cmd, env := kernelCommand(t)
	p := freePorts(t, 5)
	conn := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1], IOPubPort: p[2],
		StdinPort: p[3], HBPort: p[4], Key: newID(), SignatureScheme: "hmac-sha256"}
	file := filepath.Join(t.TempDir(), "kernel.json")
	js, _ := json.Marshal(conn)
	os.WriteFile(file, js, 0o600)
	k := exec.Command(cmd[0], append(cmd[1:], "--connection-file", file)...)
	// The kernel's history goes to a temporary data directory, not ~.
	k.Env = append(append(os.Environ(), env...), "JUPYTER_DATA_DIR="+t.TempDir())
	var logs syncBuffer
	k.Stdout, k.Stderr = &logs, &logs
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- k.Wait() }()
	t.Cleanup(func() {
		k.Process.Kill()
		if t.Failed() {
			t.Logf("kernel output:\n%s", logs.String())
		}
	})
	c := dialClient(t, conn)

	id := c.send(c.shell, "execute_request", executeContent("x = 1\n%timeit sum(rand(10**7))"))
	waitIOPub(t, c, id, "stream")
	if err := k.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if r := c.reply(c.shellCh, id); field(t, r, "ename") != "KeyboardInterrupt" {
		t.Errorf("SIGINT: %s", r.Content)
	}
	if r, _ := c.execute("x + 1"); field(t, r, "status") != "ok" {
		t.Errorf("after SIGINT: %s", r.Content)
	}
	c.reply(c.controlCh, c.send(c.control, "shutdown_request", map[string]any{"restart": false}))
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("kernel exit: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("the kernel did not exit after shutdown_request")
	}
	if strings.Contains(logs.String(), "panic") {
		t.Errorf("log:\n%s", logs.String())
	}
}
