//go:build linux

package cuda

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/tensorsh/tensorsh/internal/testenv"
)

// The host device runs the backend without a GPU: "device memory" is Go
// memory, and each generated source is compiled with the host C++
// compiler under a shim that defines the CUDA builtins the sources use
// (thread and block indices, bit casts, atomicOr, the math functions),
// into a shared library whose kernels run one thread after another. The
// whole backend (plans, views, fusion, code generation, reductions,
// memory management) is then tested against the CPU backend bit for bit,
// except the driver calls and NVRTC itself.

// hostShim defines the CUDA builtins for g++.
const hostShim = `// host shim for tensorsh kernels
#define __global__
#define __device__
#define __forceinline__ inline
struct ts_dim3 { unsigned x, y, z; };
static ts_dim3 threadIdx, blockIdx, blockDim, gridDim;
static inline unsigned __float_as_uint(float f) { unsigned u; __builtin_memcpy(&u, &f, 4); return u; }
static inline float __uint_as_float(unsigned u) { float f; __builtin_memcpy(&f, &u, 4); return f; }
static inline long long __double_as_longlong(double d) { long long u; __builtin_memcpy(&u, &d, 8); return u; }
static inline double __longlong_as_double(long long u) { double d; __builtin_memcpy(&d, &u, 8); return d; }
static inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p = o | v; return o; }
template <class T> static inline T __ldg(const T* p) { return *p; }
extern "C" {
double exp(double); double log(double); double log1p(double); double sin(double); double cos(double);
double tanh(double); double erf(double); double erfc(double); double sqrt(double); double floor(double);
double ceil(double); double trunc(double); double round(double); double rint(double);
double fmod(double, double); double pow(double, double); double fma(double, double, double);
double ldexp(double, int); double fabs(double); double copysign(double, double);
double tan(double); double asin(double); double acos(double); double atan(double); double sinh(double);
double cosh(double); double asinh(double); double acosh(double); double atanh(double); double log2(double);
double log10(double); double exp2(double); double expm1(double); double atan2(double, double);
float fmaf(float, float, float); float sqrtf(float); float fabsf(float);
}
`

// hostFlags compile like NVRTC's options: no contraction, IEEE arithmetic.
var hostFlags = []string{"-std=c++17", "-O0", "-ffp-contract=off", "-fno-fast-math", "-w", "-fPIC", "-shared"}

type hostDevice struct {
	cacheDir string
	bases    []uintptr // sorted allocation addresses
	mem      map[uintptr][]uint64
	used     int64
	limit    int64
	fns      []func(grid, block uint32, words unsafe.Pointer)
	compiles int // sources compiled (or loaded) by this device
	sources  []string
}

var hostCompileMu sync.Mutex

func newHostDevice(t testing.TB, limit int64) *hostDevice {
	if _, err := exec.LookPath("g++"); err != nil {
		testenv.Missing(t, "no C++ compiler (g++): the host tests of the generated kernels need one (apt-get install g++)")
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "tensorsh-cuda-hostkernels")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &hostDevice{cacheDir: dir, mem: map[uintptr][]uint64{}, limit: limit}
}

// newHostBackend returns a CUDA backend on a host device.
func newHostBackend(t testing.TB) (*Backend, *hostDevice) {
	return newHostBackendLimit(t, 1<<34)
}

func newHostBackendLimit(t testing.TB, limit int64) (*Backend, *hostDevice) {
	t.Helper()
	d := newHostDevice(t, limit)
	b, err := start(func() (device, error) { return d, nil })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, d
}

func (d *hostDevice) describe() string     { return "host emulation" }
func (d *hostDevice) multiprocessors() int { return 2 }

func (d *hostDevice) alloc(bytes int) (uintptr, error) {
	if d.used+int64(bytes) > d.limit {
		return 0, fmt.Errorf("host device: %d bytes: %w", bytes, errDeviceOOM)
	}
	s := make([]uint64, (bytes+7)/8)
	p := uintptr(unsafe.Pointer(&s[0]))
	d.mem[p] = s
	i, _ := slices.BinarySearch(d.bases, p)
	d.bases = slices.Insert(d.bases, i, p)
	d.used += int64(len(s) * 8)
	return p, nil
}

func (d *hostDevice) free(p uintptr) error {
	s, ok := d.mem[p]
	if !ok {
		return fmt.Errorf("host device: free of %#x, which is not allocated", p)
	}
	delete(d.mem, p)
	i, _ := slices.BinarySearch(d.bases, p)
	d.bases = slices.Delete(d.bases, i, i+1)
	d.used -= int64(len(s) * 8)
	return nil
}

// bytesAt returns the n bytes of device memory at p, which must lie
// within one allocation.
func (d *hostDevice) bytesAt(p uintptr, n int) ([]byte, error) {
	i, found := slices.BinarySearch(d.bases, p)
	if !found {
		i--
	}
	if i < 0 {
		return nil, fmt.Errorf("host device: address %#x is not allocated", p)
	}
	base := d.bases[i]
	s := d.mem[base]
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8)
	off := int(p - base)
	if off+n > len(b) {
		return nil, fmt.Errorf("host device: %d bytes at %#x pass the end of the allocation at %#x (%d bytes)", n, p, base, len(b))
	}
	return b[off : off+n], nil
}

func (d *hostDevice) memInfo() (int64, int64, error) { return d.limit - d.used, d.limit, nil }

func (d *hostDevice) htod(dst uintptr, src unsafe.Pointer, n int) error {
	b, err := d.bytesAt(dst, n)
	if err != nil {
		return err
	}
	copy(b, unsafe.Slice((*byte)(src), n))
	return nil
}

func (d *hostDevice) dtoh(dst unsafe.Pointer, src uintptr, n int) error {
	b, err := d.bytesAt(src, n)
	if err != nil {
		return err
	}
	copy(unsafe.Slice((*byte)(dst), n), b)
	return nil
}

func (d *hostDevice) dtod(dst, src uintptr, n int) error {
	db, err := d.bytesAt(dst, n)
	if err != nil {
		return err
	}
	sb, err := d.bytesAt(src, n)
	if err != nil {
		return err
	}
	copy(db, sb)
	return nil
}

func (d *hostDevice) memsetZero(p uintptr, n int) error {
	b, err := d.bytesAt(p, n)
	if err != nil {
		return err
	}
	clear(b)
	return nil
}

// hostUnit returns the C++ translation unit of a generated source: the
// shim, the source, and a launcher per kernel that runs its threads.
func hostUnit(src string, names []string) string {
	var b strings.Builder
	b.WriteString(hostShim)
	b.WriteString(src)
	for _, n := range names {
		fmt.Fprintf(&b, `extern "C" void host_launch_%s(unsigned gx, unsigned bx, const void* w) {
	gridDim.x = gx; gridDim.y = 1; gridDim.z = 1;
	blockDim.x = bx; blockDim.y = 1; blockDim.z = 1;
	for (unsigned b = 0; b < gx; b++) {
		for (unsigned t = 0; t < bx; t++) {
			blockIdx.x = b; threadIdx.x = t;
			%s(*(const P*)w);
		}
	}
}
`, n, n)
	}
	return b.String()
}

// compileHost compiles a unit with g++ into the cache directory (once per
// unit text) and returns the library's path.
func compileHost(dir, unit string) (string, error) {
	sum := sha256.Sum256([]byte(unit + strings.Join(hostFlags, " ")))
	key := hex.EncodeToString(sum[:12])
	lib := filepath.Join(dir, key+".so")
	if _, err := os.Stat(lib); err == nil {
		return lib, nil
	}
	srcFile := filepath.Join(dir, key+".cpp")
	if err := os.WriteFile(srcFile, []byte(unit), 0o644); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, key+"-*.so")
	if err != nil {
		return "", err
	}
	tmp.Close()
	args := append(append([]string{}, hostFlags...), "-o", tmp.Name(), srcFile)
	if out, err := exec.Command("g++", args...).CombinedOutput(); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("g++ %s: %v\n%s", srcFile, err, out)
	}
	if err := os.Rename(tmp.Name(), lib); err != nil {
		return "", err
	}
	return lib, nil
}

func (d *hostDevice) compile(src string, names []string) (*module, error) {
	d.compiles++
	d.sources = append(d.sources, src)
	lib, err := compileHost(d.cacheDir, hostUnit(src, names))
	if err != nil {
		return nil, err
	}
	hostCompileMu.Lock()
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_LOCAL)
	hostCompileMu.Unlock()
	if err != nil {
		return nil, err
	}
	m := &module{handle: h, fns: map[string]uintptr{}}
	for _, n := range names {
		sym, err := purego.Dlsym(h, "host_launch_"+n)
		if err != nil {
			return nil, err
		}
		var fn func(grid, block uint32, words unsafe.Pointer)
		purego.RegisterFunc(&fn, sym)
		d.fns = append(d.fns, fn)
		m.fns[n] = uintptr(len(d.fns) - 1)
	}
	return m, nil
}

func (d *hostDevice) launch(f uintptr, grid, block int, words []uint64) error {
	if len(words) == 0 {
		words = []uint64{0}
	}
	d.fns[f](uint32(grid), uint32(block), unsafe.Pointer(&words[0]))
	return nil
}

func (d *hostDevice) sync() error  { return nil }
func (d *hostDevice) close() error { return nil }
