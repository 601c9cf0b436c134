//go:build linux

package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebitengine/purego"
)

// swap sets *p to v for the test.
func swap[T any](t *testing.T, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

func TestMissingDriver(t *testing.T) {
	swap(t, &driverNames, []string{"libcuda-tensorsh-missing.so.1"})
	swap(t, &driverDirs, []string{t.TempDir()})
	_, err := New()
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("New without libcuda: %v", err)
	}
	if want := "cuda backend unavailable: libcuda.so.1 not found (no NVIDIA driver on this machine)"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestMissingNVRTC(t *testing.T) {
	swap(t, &nvrtcNames, []string{"libnvrtc-tensorsh-missing.so"})
	t.Setenv("CUDA_HOME", t.TempDir())
	var rtc nvrtcAPI
	_, err := loadNVRTC(&rtc)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("loadNVRTC without NVRTC: %v", err)
	}
	for _, want := range []string{"NVRTC not found", "libnvrtc-tensorsh-missing.so", "CUDA_HOME"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func TestNVRTCDirs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CUDA_HOME", home)
	t.Setenv("CUDA_PATH", "/opt/cudapath")
	dirs := nvrtcDirs()
	want := []string{filepath.Join(home, "lib64"), filepath.Join(home, "lib"), "/opt/cudapath/lib64", "/opt/cudapath/lib", "/usr/local/cuda/lib64"}
	for i, w := range want {
		if i >= len(dirs) || dirs[i] != w {
			t.Fatalf("nvrtcDirs() = %v, want it to start with %v", dirs, want)
		}
	}
}

// libm returns the path of a real shared library to stand in for one.
func libm(t *testing.T) string {
	for _, p := range []string{"/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6", "/lib64/libm.so.6", "/usr/lib64/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no libm.so.6 found to stand in for a library")
	return ""
}

// TestOpenLibSearch finds a versioned library by glob in a directory that
// is not on the linker's path, as NVRTC is found in $CUDA_HOME/lib64.
func TestOpenLibSearch(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(libm(t), filepath.Join(dir, "libtensorshfake.so.12.4")); err != nil {
		t.Fatal(err)
	}
	h, path, err := openLib([]string{"libtensorshfake.so"}, []string{"/nonexistent", dir}, "libtensorshfake.so.*")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "libtensorshfake.so.12.4") || h == 0 {
		t.Errorf("found %q (%#x)", path, h)
	}
	if _, _, err := openLib([]string{"libtensorshfake-none.so"}, []string{dir}, ""); err == nil {
		t.Errorf("a missing library was found")
	}
}

func TestBindMissingSymbol(t *testing.T) {
	h, err := purego.Dlopen(libm(t), purego.RTLD_NOW)
	if err != nil {
		t.Fatal(err)
	}
	var cos func(float64) float64
	var nope func() int32
	if err := bind(h, "libm", []binding{{fn: &cos, names: []string{"cos"}}, {fn: &nope, names: []string{"cuNope"}, optional: true}}); err != nil {
		t.Fatal(err)
	}
	if cos(0) != 1 || nope != nil {
		t.Errorf("bound cos(0) = %v, optional missing symbol bound: %v", cos(0), nope != nil)
	}
	err = bind(h, "libm", []binding{{fn: &nope, names: []string{"cuNope", "cuNope_v2"}}})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "libm lacks cuNope") {
		t.Errorf("missing symbol: %v", err)
	}
}

func TestErrors(t *testing.T) {
	d := &cudaDevice{}
	if err := d.check("cuMemAlloc", 0); err != nil {
		t.Errorf("success: %v", err)
	}
	err := d.check("cuMemAlloc", cudaErrorOutOfMemory)
	if !errors.Is(err, errDeviceOOM) || !strings.Contains(err.Error(), "cuMemAlloc") {
		t.Errorf("out of memory: %v", err)
	}
	err = d.check("cuLaunchKernel", 700)
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != 700 || ce.Call != "cuLaunchKernel" {
		t.Fatalf("launch failure: %#v", err)
	}
	if err.Error() != "cuda: cuLaunchKernel: unknown error (CUDA error 700)" {
		t.Errorf("message %q", err)
	}
	err = d.rtcCheck("nvrtcCompileProgram", 6)
	if err.Error() != "nvrtc: nvrtcCompileProgram: NVRTC error 6" {
		t.Errorf("nvrtc message %q", err)
	}
}
