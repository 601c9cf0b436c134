//go:build linux

package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/tensorsh/tensorsh/backend"
)

// The CUDA driver API and NVRTC, loaded at run time with purego: no CUDA
// headers or libraries are needed to build, and the binary runs on
// machines without them (New then returns ErrUnavailable).

// An Error is a failed CUDA driver or NVRTC call.
type Error struct {
	Call string // the function, such as "cuLaunchKernel"
	Code int    // its result code
	Name string // the code's name, such as "CUDA_ERROR_LAUNCH_FAILED"
	Msg  string // CUDA's own description of the code
}

func (e *Error) Error() string {
	if strings.HasPrefix(e.Call, "nvrtc") {
		return fmt.Sprintf("nvrtc: %s: %s", e.Call, e.Msg)
	}
	return fmt.Sprintf("cuda: %s: %s (%s)", e.Call, e.Msg, e.Name)
}

// Result codes the backend tells apart.
const (
	cudaErrorOutOfMemory = 2
	cudaErrorNoDevice    = 100
)

// CUdevice_attribute values.
const (
	attrMultiprocessors = 16
	attrCCMajor         = 75
	attrCCMinor         = 76
)

// cudaAPI holds the driver functions.
type cudaAPI struct {
	cuInit                    func(flags uint32) int32
	cuDriverGetVersion        func(v *int32) int32
	cuDeviceGetCount          func(n *int32) int32
	cuDeviceGet               func(dev *int32, ordinal int32) int32
	cuDeviceGetName           func(name *byte, n int32, dev int32) int32
	cuDeviceGetAttribute      func(v *int32, attr int32, dev int32) int32
	cuDeviceTotalMem          func(bytes *uint64, dev int32) int32
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease func(dev int32) int32
	cuCtxSetCurrent           func(ctx uintptr) int32
	cuCtxSynchronize          func() int32
	cuMemAlloc                func(p *uint64, bytes uint64) int32
	cuMemFree                 func(p uint64) int32
	cuMemGetInfo              func(free, total *uint64) int32
	cuMemcpyHtoD              func(dst uint64, src unsafe.Pointer, n uint64) int32
	cuMemcpyDtoH              func(dst unsafe.Pointer, src uint64, n uint64) int32
	cuMemcpyDtoD              func(dst, src uint64, n uint64) int32
	cuMemsetD8                func(p uint64, v uint8, n uint64) int32
	cuModuleLoadData          func(m *uintptr, image unsafe.Pointer) int32
	cuModuleUnload            func(m uintptr) int32
	cuModuleGetFunction       func(f *uintptr, m uintptr, name string) int32
	cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, stream uintptr, params, extra unsafe.Pointer) int32
	cuGetErrorName            func(r int32, s **byte) int32
	cuGetErrorString          func(r int32, s **byte) int32
}

// nvrtcAPI holds the NVRTC functions (the optional ones may be nil).
type nvrtcAPI struct {
	nvrtcVersion              func(major, minor *int32) int32
	nvrtcGetErrorString       func(r int32) string
	nvrtcCreateProgram        func(prog *uintptr, src, name string, numHeaders int32, headers, includeNames unsafe.Pointer) int32
	nvrtcCompileProgram       func(prog uintptr, numOptions int32, options unsafe.Pointer) int32
	nvrtcGetProgramLogSize    func(prog uintptr, n *uint64) int32
	nvrtcGetProgramLog        func(prog uintptr, log *byte) int32
	nvrtcGetPTXSize           func(prog uintptr, n *uint64) int32
	nvrtcGetPTX               func(prog uintptr, out *byte) int32
	nvrtcGetCUBINSize         func(prog uintptr, n *uint64) int32 // CUDA 11.1+
	nvrtcGetCUBIN             func(prog uintptr, out *byte) int32 // CUDA 11.1+
	nvrtcGetNumSupportedArchs func(n *int32) int32                // CUDA 11.2+
	nvrtcGetSupportedArchs    func(archs *int32) int32            // CUDA 11.2+
	nvrtcDestroyProgram       func(prog *uintptr) int32
}

// A binding ties a Go function variable to a C symbol.
type binding struct {
	fn       any
	names    []string // the first one found is used
	optional bool
}

// bind looks up every binding's symbol in lib and registers it.
func bind(lib uintptr, libName string, bs []binding) error {
	for _, b := range bs {
		var sym uintptr
		for _, name := range b.names {
			if s, err := purego.Dlsym(lib, name); err == nil && s != 0 {
				sym = s
				break
			}
		}
		if sym == 0 {
			if b.optional {
				continue
			}
			return fmt.Errorf("%w: %s lacks %s (too old?)", ErrUnavailable, libName, b.names[0])
		}
		purego.RegisterFunc(b.fn, sym)
	}
	return nil
}

func (a *cudaAPI) bindings() []binding {
	return []binding{
		{fn: &a.cuInit, names: []string{"cuInit"}},
		{fn: &a.cuDriverGetVersion, names: []string{"cuDriverGetVersion"}},
		{fn: &a.cuDeviceGetCount, names: []string{"cuDeviceGetCount"}},
		{fn: &a.cuDeviceGet, names: []string{"cuDeviceGet"}},
		{fn: &a.cuDeviceGetName, names: []string{"cuDeviceGetName"}},
		{fn: &a.cuDeviceGetAttribute, names: []string{"cuDeviceGetAttribute"}},
		{fn: &a.cuDeviceTotalMem, names: []string{"cuDeviceTotalMem_v2"}},
		{fn: &a.cuDevicePrimaryCtxRetain, names: []string{"cuDevicePrimaryCtxRetain"}},
		{fn: &a.cuDevicePrimaryCtxRelease, names: []string{"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}},
		{fn: &a.cuCtxSetCurrent, names: []string{"cuCtxSetCurrent"}},
		{fn: &a.cuCtxSynchronize, names: []string{"cuCtxSynchronize"}},
		{fn: &a.cuMemAlloc, names: []string{"cuMemAlloc_v2"}},
		{fn: &a.cuMemFree, names: []string{"cuMemFree_v2"}},
		{fn: &a.cuMemGetInfo, names: []string{"cuMemGetInfo_v2"}},
		{fn: &a.cuMemcpyHtoD, names: []string{"cuMemcpyHtoD_v2"}},
		{fn: &a.cuMemcpyDtoH, names: []string{"cuMemcpyDtoH_v2"}},
		{fn: &a.cuMemcpyDtoD, names: []string{"cuMemcpyDtoD_v2"}},
		{fn: &a.cuMemsetD8, names: []string{"cuMemsetD8_v2"}},
		{fn: &a.cuModuleLoadData, names: []string{"cuModuleLoadData"}},
		{fn: &a.cuModuleUnload, names: []string{"cuModuleUnload"}},
		{fn: &a.cuModuleGetFunction, names: []string{"cuModuleGetFunction"}},
		{fn: &a.cuLaunchKernel, names: []string{"cuLaunchKernel"}},
		{fn: &a.cuGetErrorName, names: []string{"cuGetErrorName"}},
		{fn: &a.cuGetErrorString, names: []string{"cuGetErrorString"}},
	}
}

func (a *nvrtcAPI) bindings() []binding {
	return []binding{
		{fn: &a.nvrtcVersion, names: []string{"nvrtcVersion"}},
		{fn: &a.nvrtcGetErrorString, names: []string{"nvrtcGetErrorString"}},
		{fn: &a.nvrtcCreateProgram, names: []string{"nvrtcCreateProgram"}},
		{fn: &a.nvrtcCompileProgram, names: []string{"nvrtcCompileProgram"}},
		{fn: &a.nvrtcGetProgramLogSize, names: []string{"nvrtcGetProgramLogSize"}},
		{fn: &a.nvrtcGetProgramLog, names: []string{"nvrtcGetProgramLog"}},
		{fn: &a.nvrtcGetPTXSize, names: []string{"nvrtcGetPTXSize"}},
		{fn: &a.nvrtcGetPTX, names: []string{"nvrtcGetPTX"}},
		{fn: &a.nvrtcGetCUBINSize, names: []string{"nvrtcGetCUBINSize"}, optional: true},
		{fn: &a.nvrtcGetCUBIN, names: []string{"nvrtcGetCUBIN"}, optional: true},
		{fn: &a.nvrtcGetNumSupportedArchs, names: []string{"nvrtcGetNumSupportedArchs"}, optional: true},
		{fn: &a.nvrtcGetSupportedArchs, names: []string{"nvrtcGetSupportedArchs"}, optional: true},
		{fn: &a.nvrtcDestroyProgram, names: []string{"nvrtcDestroyProgram"}},
	}
}

// Library search.

// driverNames are the names libcuda is looked for under (the driver
// installs libcuda.so.1; libcuda.so comes with development packages).
var driverNames = []string{"libcuda.so.1", "libcuda.so"}

// driverDirs are searched after the dynamic linker's own path.
var driverDirs = []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib/wsl/lib"}

// nvrtcNames are the names NVRTC is looked for under, newest first.
var nvrtcNames = []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so.11.1", "libnvrtc.so.11.0"}

// nvrtcDirs returns the directories NVRTC is looked for in after the
// dynamic linker's path: $CUDA_HOME and $CUDA_PATH, /usr/local/cuda and
// its versioned siblings (newest first), the system library directories,
// and the pip wheels' nvidia/cuda_nvrtc.
func nvrtcDirs() []string {
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, filepath.Join(d, "lib64"), filepath.Join(d, "lib"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib")
	versioned, _ := filepath.Glob("/usr/local/cuda-*/lib64")
	slices.SortFunc(versioned, func(a, b string) int { return strings.Compare(b, a) })
	dirs = append(dirs, versioned...)
	dirs = append(dirs, "/opt/cuda/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64")
	home, _ := os.UserHomeDir()
	for _, pat := range []string{
		"/usr/local/lib/python3*/*-packages/nvidia/cuda_nvrtc/lib",
		"/usr/lib/python3*/*-packages/nvidia/cuda_nvrtc/lib",
		filepath.Join(home, ".local/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib"),
		"/usr/local/lib/python3*/*-packages/nvidia/cu1*/lib",
	} {
		m, _ := filepath.Glob(pat)
		dirs = append(dirs, m...)
	}
	return dirs
}

// openLib opens the first library found: each name through the dynamic
// linker, then each name (and, for globs, each versioned file) in each
// directory. It returns the handle and the path or name opened.
func openLib(names, dirs []string, glob string) (uintptr, string, error) {
	var first error
	try := func(path string) uintptr {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			if first == nil {
				first = err
			}
			return 0
		}
		return h
	}
	for _, n := range names {
		if h := try(n); h != 0 {
			return h, n, nil
		}
	}
	for _, d := range dirs {
		cands := make([]string, 0, len(names))
		for _, n := range names {
			cands = append(cands, filepath.Join(d, n))
		}
		if glob != "" {
			m, _ := filepath.Glob(filepath.Join(d, glob))
			slices.SortFunc(m, func(a, b string) int { return strings.Compare(b, a) })
			cands = append(cands, m...)
		}
		for _, p := range cands {
			if _, err := os.Stat(p); err != nil {
				continue
			}
			// NVRTC loads its builtins library at compile time; load it
			// from the same directory first so that it is found.
			if glob != "" {
				bs, _ := filepath.Glob(filepath.Join(d, "libnvrtc-builtins.so*"))
				for _, b := range bs {
					try(b)
				}
			}
			if h := try(p); h != 0 {
				return h, p, nil
			}
		}
	}
	return 0, "", first
}

// The device.

// cudaDevice is a GPU driven through libcuda, with kernels compiled by
// NVRTC.
type cudaDevice struct {
	cu     cudaAPI
	rtc    nvrtcAPI
	dev    int32
	ctx    uintptr
	name   string
	major  int
	minor  int
	sms    int
	total  uint64
	arch   string // NVRTC's --gpu-architecture
	cubin  bool   // compile to a cubin (else PTX, for the driver to finish)
	mods   []uintptr
	nvrtcV string
}

// openCUDA loads the driver and NVRTC and makes the primary context of
// GPU ordinal current on the calling (locked) thread.
func openCUDA(ordinal int) (device, error) {
	lib, _, err := openLib(driverNames, driverDirs, "")
	if err != nil {
		return nil, fmt.Errorf("%w: libcuda.so.1 not found (no NVIDIA driver on this machine)", ErrUnavailable)
	}
	d := &cudaDevice{}
	if err := bind(lib, "libcuda.so.1", d.cu.bindings()); err != nil {
		return nil, err
	}
	if r := d.cu.cuInit(0); r != 0 {
		if r == cudaErrorNoDevice {
			return nil, fmt.Errorf("%w: no CUDA device (%v)", ErrUnavailable, d.check("cuInit", r))
		}
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, d.check("cuInit", r))
	}
	var count int32
	if err := d.check("cuDeviceGetCount", d.cu.cuDeviceGetCount(&count)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if count == 0 {
		return nil, fmt.Errorf("%w: no CUDA device", ErrUnavailable)
	}
	if ordinal < 0 || ordinal >= int(count) {
		return nil, fmt.Errorf("%w: no CUDA device %d (this machine has %d)", ErrUnavailable, ordinal, count)
	}
	if err := d.check("cuDeviceGet", d.cu.cuDeviceGet(&d.dev, int32(ordinal))); err != nil {
		return nil, err
	}
	name := make([]byte, 256)
	if err := d.check("cuDeviceGetName", d.cu.cuDeviceGetName(&name[0], int32(len(name)), d.dev)); err != nil {
		return nil, err
	}
	d.name = cstring(name)
	attr := func(a int32) (int, error) {
		var v int32
		err := d.check("cuDeviceGetAttribute", d.cu.cuDeviceGetAttribute(&v, a, d.dev))
		return int(v), err
	}
	if d.major, err = attr(attrCCMajor); err != nil {
		return nil, err
	}
	if d.minor, err = attr(attrCCMinor); err != nil {
		return nil, err
	}
	if d.sms, err = attr(attrMultiprocessors); err != nil {
		return nil, err
	}
	if err := d.check("cuDeviceTotalMem", d.cu.cuDeviceTotalMem(&d.total, d.dev)); err != nil {
		return nil, err
	}

	if d.nvrtcV, err = loadNVRTC(&d.rtc); err != nil {
		return nil, err
	}
	d.pickArch()

	if err := d.check("cuDevicePrimaryCtxRetain", d.cu.cuDevicePrimaryCtxRetain(&d.ctx, d.dev)); err != nil {
		return nil, err
	}
	if err := d.check("cuCtxSetCurrent", d.cu.cuCtxSetCurrent(d.ctx)); err != nil {
		d.cu.cuDevicePrimaryCtxRelease(d.dev)
		return nil, err
	}
	return d, nil
}

// loadNVRTC finds and loads NVRTC into rtc and returns its version.
func loadNVRTC(rtc *nvrtcAPI) (string, error) {
	lib, _, err := openLib(nvrtcNames, nvrtcDirs(), "libnvrtc.so.*")
	if err != nil {
		return "", fmt.Errorf("%w: NVRTC not found (looked for %s in the library path, $CUDA_HOME/lib64, /usr/local/cuda*/lib64 and the system library directories); install the CUDA toolkit's NVRTC or set CUDA_HOME",
			ErrUnavailable, strings.Join(nvrtcNames, ", "))
	}
	if err := bind(lib, "libnvrtc", rtc.bindings()); err != nil {
		return "", err
	}
	var major, minor int32
	if r := rtc.nvrtcVersion(&major, &minor); r != 0 {
		return "", fmt.Errorf("%w: nvrtcVersion failed (%d)", ErrUnavailable, r)
	}
	return fmt.Sprintf("%d.%d", major, minor), nil
}

// pickArch chooses the target: the device's own sm_XY as a cubin when
// NVRTC knows it, else PTX for the newest architecture NVRTC knows below
// it (the driver compiles PTX for newer GPUs).
func (d *cudaDevice) pickArch() {
	cc := d.major*10 + d.minor
	d.arch, d.cubin = fmt.Sprintf("sm_%d", cc), d.rtc.nvrtcGetCUBIN != nil
	if d.rtc.nvrtcGetNumSupportedArchs == nil || d.rtc.nvrtcGetSupportedArchs == nil {
		return
	}
	var n int32
	if d.rtc.nvrtcGetNumSupportedArchs(&n) != 0 || n <= 0 {
		return
	}
	archs := make([]int32, n)
	if d.rtc.nvrtcGetSupportedArchs(&archs[0]) != 0 {
		return
	}
	best := 0
	for _, a := range archs {
		if int(a) == cc {
			return
		}
		if int(a) < cc && int(a) > best {
			best = int(a)
		}
	}
	if best > 0 {
		d.arch, d.cubin = fmt.Sprintf("compute_%d", best), false
	}
}

// check turns a driver result into an error naming the call.
func (d *cudaDevice) check(call string, r int32) error {
	if r == 0 {
		return nil
	}
	e := &Error{Call: call, Code: int(r), Name: fmt.Sprintf("CUDA error %d", r), Msg: "unknown error"}
	var s *byte
	if d.cu.cuGetErrorName != nil && d.cu.cuGetErrorName(r, &s) == 0 && s != nil {
		e.Name = gostring(s)
	}
	s = nil
	if d.cu.cuGetErrorString != nil && d.cu.cuGetErrorString(r, &s) == 0 && s != nil {
		e.Msg = gostring(s)
	}
	if r == cudaErrorOutOfMemory {
		return fmt.Errorf("%w (%v)", errDeviceOOM, e)
	}
	return e
}

// rtcCheck turns an NVRTC result into an error naming the call.
func (d *cudaDevice) rtcCheck(call string, r int32) error {
	if r == 0 {
		return nil
	}
	msg := fmt.Sprintf("NVRTC error %d", r)
	if d.rtc.nvrtcGetErrorString != nil {
		msg = d.rtc.nvrtcGetErrorString(r)
	}
	return &Error{Call: call, Code: int(r), Name: msg, Msg: msg}
}

func (d *cudaDevice) describe() string {
	return fmt.Sprintf("%s (sm_%d%d, %s, NVRTC %s)", d.name, d.major, d.minor, backend.FormatBytes(int64(d.total)), d.nvrtcV)
}

func (d *cudaDevice) multiprocessors() int { return d.sms }

func (d *cudaDevice) alloc(bytes int) (uintptr, error) {
	var p uint64
	if err := d.check("cuMemAlloc", d.cu.cuMemAlloc(&p, uint64(bytes))); err != nil {
		return 0, err
	}
	return uintptr(p), nil
}

func (d *cudaDevice) free(p uintptr) error { return d.check("cuMemFree", d.cu.cuMemFree(uint64(p))) }

func (d *cudaDevice) memInfo() (int64, int64, error) {
	var free, total uint64
	if err := d.check("cuMemGetInfo", d.cu.cuMemGetInfo(&free, &total)); err != nil {
		return 0, 0, err
	}
	return int64(free), int64(total), nil
}

func (d *cudaDevice) htod(dst uintptr, src unsafe.Pointer, bytes int) error {
	return d.check("cuMemcpyHtoD", d.cu.cuMemcpyHtoD(uint64(dst), src, uint64(bytes)))
}

func (d *cudaDevice) dtoh(dst unsafe.Pointer, src uintptr, bytes int) error {
	return d.check("cuMemcpyDtoH", d.cu.cuMemcpyDtoH(dst, uint64(src), uint64(bytes)))
}

func (d *cudaDevice) dtod(dst, src uintptr, bytes int) error {
	return d.check("cuMemcpyDtoD", d.cu.cuMemcpyDtoD(uint64(dst), uint64(src), uint64(bytes)))
}

func (d *cudaDevice) memsetZero(p uintptr, bytes int) error {
	return d.check("cuMemsetD8", d.cu.cuMemsetD8(uint64(p), 0, uint64(bytes)))
}

// nvrtcOptions are the compile options besides the architecture: IEEE
// arithmetic (no contraction into fused multiply-adds, which would round
// differently from the CPU backend; no flushing of subnormals; correctly
// rounded division and square root).
var nvrtcOptions = []string{"--fmad=false", "--ftz=false", "--prec-div=true", "--prec-sqrt=true", "-std=c++17"}

func (d *cudaDevice) compile(src string, names []string) (*module, error) {
	var prog uintptr
	if err := d.rtcCheck("nvrtcCreateProgram", d.rtc.nvrtcCreateProgram(&prog, src, "tensorsh.cu", 0, nil, nil)); err != nil {
		return nil, err
	}
	defer d.rtc.nvrtcDestroyProgram(&prog)
	opts := append([]string{"--gpu-architecture=" + d.arch}, nvrtcOptions...)
	cstrs := make([][]byte, len(opts))
	ptrs := make([]*byte, len(opts))
	for i, o := range opts {
		cstrs[i] = append([]byte(o), 0)
		ptrs[i] = &cstrs[i][0]
	}
	r := d.rtc.nvrtcCompileProgram(prog, int32(len(opts)), unsafe.Pointer(&ptrs[0]))
	if r != 0 {
		err := d.rtcCheck("nvrtcCompileProgram", r)
		return nil, fmt.Errorf("%v (options %s)\n%s", err, strings.Join(opts, " "), d.programLog(prog))
	}
	var image []byte
	var size uint64
	if d.cubin {
		if err := d.rtcCheck("nvrtcGetCUBINSize", d.rtc.nvrtcGetCUBINSize(prog, &size)); err != nil {
			return nil, err
		}
		image = make([]byte, size+1)
		if err := d.rtcCheck("nvrtcGetCUBIN", d.rtc.nvrtcGetCUBIN(prog, &image[0])); err != nil {
			return nil, err
		}
	} else {
		if err := d.rtcCheck("nvrtcGetPTXSize", d.rtc.nvrtcGetPTXSize(prog, &size)); err != nil {
			return nil, err
		}
		image = make([]byte, size+1)
		if err := d.rtcCheck("nvrtcGetPTX", d.rtc.nvrtcGetPTX(prog, &image[0])); err != nil {
			return nil, err
		}
	}
	m := &module{fns: map[string]uintptr{}}
	if err := d.check("cuModuleLoadData", d.cu.cuModuleLoadData(&m.handle, unsafe.Pointer(&image[0]))); err != nil {
		return nil, err
	}
	d.mods = append(d.mods, m.handle)
	for _, n := range names {
		var f uintptr
		if err := d.check("cuModuleGetFunction", d.cu.cuModuleGetFunction(&f, m.handle, n)); err != nil {
			return nil, err
		}
		m.fns[n] = f
	}
	return m, nil
}

// programLog returns NVRTC's log of prog.
func (d *cudaDevice) programLog(prog uintptr) string {
	var n uint64
	if d.rtc.nvrtcGetProgramLogSize(prog, &n) != 0 || n <= 1 {
		return ""
	}
	log := make([]byte, n)
	if d.rtc.nvrtcGetProgramLog(prog, &log[0]) != 0 {
		return ""
	}
	return cstring(log)
}

func (d *cudaDevice) launch(f uintptr, grid, block int, words []uint64) error {
	if len(words) == 0 {
		words = []uint64{0}
	}
	params := []unsafe.Pointer{unsafe.Pointer(&words[0])}
	r := d.cu.cuLaunchKernel(f, uint32(grid), 1, 1, uint32(block), 1, 1, 0, 0, unsafe.Pointer(&params[0]), nil)
	return d.check("cuLaunchKernel", r)
}

func (d *cudaDevice) sync() error { return d.check("cuCtxSynchronize", d.cu.cuCtxSynchronize()) }

func (d *cudaDevice) close() error {
	var errs []error
	for _, m := range d.mods {
		errs = append(errs, d.check("cuModuleUnload", d.cu.cuModuleUnload(m)))
	}
	d.mods = nil
	errs = append(errs, d.check("cuDevicePrimaryCtxRelease", d.cu.cuDevicePrimaryCtxRelease(d.dev)))
	return errors.Join(errs...)
}

// cstring returns the NUL-terminated string at the start of b.
func cstring(b []byte) string {
	if i := slices.Index(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// gostring copies the NUL-terminated C string at p.
func gostring(p *byte) string {
	var b []byte
	for q := unsafe.Pointer(p); *(*byte)(q) != 0; q = unsafe.Add(q, 1) {
		b = append(b, *(*byte)(q))
	}
	return string(b)
}
