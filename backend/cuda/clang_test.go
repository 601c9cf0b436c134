package cuda

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/internal/testenv"
)

// clangShim gives clang's CUDA device compilation what NVRTC provides
// built in (clang's wrapper headers normally find them in a CUDA
// installation): the attribute macros, the builtin variables, the
// libdevice-backed math functions, atomicOr, and __ldg with the overloads
// CUDA declares for scalars.
const clangShim = `#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define CUDA_VERSION 12000
typedef unsigned long size_t;
#define INT_MAX 2147483647
#define INT_MIN (-INT_MAX - 1)
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#include <__clang_cuda_builtin_vars.h>
#include <__clang_cuda_libdevice_declares.h>
#undef __DEVICE__
#define __DEVICE__ static __device__ __forceinline__
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#undef __DEVICE__
#define LDG(T) static __device__ __forceinline__ T __ldg(const T* p) { return *p; }
LDG(char) LDG(signed char) LDG(short) LDG(int) LDG(long long) LDG(unsigned char) LDG(unsigned short)
LDG(unsigned int) LDG(unsigned long long) LDG(float) LDG(double)
static __device__ __forceinline__ unsigned atomicOr(unsigned* p, unsigned v) { return (unsigned)__nvvm_atom_or_gen_i((int*)p, (int)v); }
`

// TestDeviceCompile compiles the golden sources as CUDA device code with
// clang (to PTX for sm_80, without a CUDA installation): a check, without
// NVRTC, that the generated C++ is valid device code.
func TestDeviceCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every golden source with clang, seconds; skipped with -short (make test runs it)")
	}
	var clang string
	for _, c := range []string{"clang", "clang-14", "clang-15", "clang-16", "clang-17", "clang-18"} {
		if p, err := exec.LookPath(c); err == nil {
			clang = p
			break
		}
	}
	if clang == "" {
		testenv.Missing(t, "no clang: the device compilation check of the generated sources needs one (apt-get install clang)")
	}
	dir := t.TempDir()
	shim := filepath.Join(dir, "shim.h")
	if err := os.WriteFile(shim, []byte(clangShim), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.cu"))
	if len(files) == 0 {
		t.Fatal("no golden sources in testdata")
	}
	for _, f := range files {
		out, err := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
			"-std=c++17", "-include", shim, "-S", "-o", filepath.Join(dir, "out.ptx"), f).CombinedOutput()
		if err != nil {
			if strings.Contains(string(out), "unsupported CUDA gpu architecture") || strings.Contains(string(out), "cannot find CUDA") {
				testenv.Missing(t, "%s cannot compile CUDA here: %s", clang, out)
			}
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
}
