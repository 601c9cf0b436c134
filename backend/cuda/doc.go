// Package cuda is the GPU backend of tensorsh: it evaluates typed plans
// (backend.Node trees) on an NVIDIA GPU with the results of the CPU
// backend, bit for bit wherever the CPU backend is exact.
//
// # Loading
//
// Nothing of CUDA is needed to build: New loads the driver (libcuda.so.1)
// and NVRTC (libnvrtc.so, libnvrtc.so.13, .so.12, … found through the
// dynamic linker's path, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda*, the
// system library directories and pip's nvidia/cuda_nvrtc) at run time
// with github.com/ebitengine/purego, so one binary (CGO_ENABLED=0
// included) serves machines with and without GPUs. Where something is
// missing, New returns an error wrapping ErrUnavailable that says what
// ("cuda backend unavailable: libcuda.so.1 not found (no NVIDIA driver on
// this machine)"). Every driver and NVRTC result is checked and turned
// into an *Error naming the call with CUDA's own description.
//
// All CUDA calls are made by one goroutine locked to its OS thread (CUDA
// contexts are current per thread); the backend's methods hand their work
// to it, so a Backend is safe for concurrent use and runs one call at a
// time.
//
// # Kernels
//
// As in the CPU backend, an elementwise node and the elementwise nodes
// below it that have its shape and no other user are fused. Each fused
// tree becomes one generated CUDA C++ kernel that reads every operand
// once, through its own strides (broadcasting, transposes and slices cost
// no copy), and writes the result once. The source is specialised for the
// operations, the dtypes, the rank, which operands are contiguous,
// broadcast scalars or strided, and the index width (32 or 64 bits);
// sizes, strides and addresses are kernel parameters. Sources are
// compiled with NVRTC for the device's own architecture
// (--gpu-architecture=sm_XY, from the compute capability) and the modules
// are kept in memory, keyed by the source text, so a statement of a known
// shape of computation compiles nothing. Reductions of elementwise
// expressions read the fused expression directly (sum(a*b) makes no
// temporary).
//
// The compile options ask for IEEE arithmetic: --fmad=false (a*b+c is not
// contracted into a fused multiply-add, which would round differently
// from the CPU backend), no flushing of subnormals, correctly rounded
// division and square root.
//
// # Precision
//
// The generated code computes what the CPU backend computes:
//
//   - Narrow floats (f16, bf16, f8e4m3, f8e5m2) are stored as bits and
//     computed in float32, rounded back after every operation, and tf32 is
//     computed in float32 and rounded to 10 mantissa bits; the conversions
//     are written out as C bit manipulation (no cuda_fp16.h) and round to
//     nearest even exactly as dtypes/convert.go does, NaN sign and payload
//     included.
//   - Integer arithmetic wraps; division and remainder follow Node.CDiv
//     (floor or C truncation), x/0 and x%0 give what Node.IntDiv says or,
//     with Node.ZeroDivError, backend.ErrDivideByZero (kernels set a flag
//     word that Run reads; with Node.WarnIntDiv the word's warning bits
//     become a *backend.Warning returned with the result); MIN / -1 is
//     MIN; shifts by the width or more give 0 or -1; integers to negative
//     integer powers are an error. Complex maximum and minimum order
//     lexicographically (ts_cminmax), as NumPy or (Node.XLAMinMax) JAX does;
//     |z| is the hypot of the parts, or with Node.ScaledCAbs NumPy's SIMD
//     formula (ts_cabs_scaled, fmaf and fma fused whatever --fmad says).
//   - Float to integer conversions follow x86-64 (NaN and out-of-range
//     values give what NumPy gives there), integer to narrow float rounds
//     once from the exact integer, and so on through every rule of the
//     CPU backend's castKernel.
//   - maximum, minimum and relu propagate NaN (the first NaN wins); round
//     rounds half away from zero, roundeven half to even; float floor
//     division and remainder follow NumPy's npy_divmod.
//   - Transcendental functions of float32 and narrower are computed in
//     double and rounded once, like the CPU backend: the result is within
//     1 ULP of the CPU backend's (almost always identical). Float64
//     transcendental functions use CUDA's libdevice (documented maximal
//     errors 1-2 ULP, 5 for the erfc in gelu) where the CPU backend uses
//     Go's math package; see backend/conformance for the bounds checked.
//     Powers with integer exponents use the CPU backend's double-double
//     method and are identical.
//   - Complex products and quotients use NumPy's formulas on the parts.
//
// NaNs may differ from the CPU backend's in sign and payload (GPUs
// produce their own canonical NaN); they are NaN in both.
//
// Reductions give the CPU backend's results bit for bit: the kernels add
// in NumPy's order (pairwise summation of contiguous runs in pieces of
// backend.SumPiece, sequential accumulation across outer axes, rounding
// of narrow floats after each piece), splitting the work between threads only where that does not
// change the result (see reduce.go). Matrix products (one thread per
// output element, floats accumulated in double in order) and softmax (one
// thread per row, in double) are simple kernels with the CPU backend's
// arithmetic.
//
// # Work done on the CPU
//
// A few rarely used operations are computed by the CPU backend, their
// operands copied to the host and the result back: the complex
// transcendental functions (exp, log, log1p, sin, cos, tanh, sqrt, rsqrt)
// and complex powers, which use Go's math/cmplx; and float and complex
// products over more than 65536 elements per output with fewer than 256
// outputs (NumPy multiplies sequentially, which one GPU thread does far
// more slowly than a CPU core).
//
// # Memory
//
// Tensors returned by the backend live on the device: their Data is an
// *Array. Fetch copies a tensor to the CPU form; Upload copies a CPU
// tensor to the device; Run also accepts CPU tensors as inputs (uploading
// them for the run). Free releases a tensor's memory at once (the
// evaluator calls it when a variable is dropped); otherwise the garbage
// collector releases it when the tensor becomes unreachable
// (runtime.AddCleanup). Released blocks are kept for reuse (up to an
// eighth of the device memory), so repeated statements allocate nothing.
// When an allocation fails, the backend gives the kept blocks back to the
// driver, collects garbage, and tries again; if that fails too, Run
// returns "cuda: out of memory: … needed, … free of … on the device" and
// the backend stays usable. Run waits for the GPU before returning, so an
// error belongs to the statement that caused it. A kernel fault (which
// should not happen) leaves the CUDA context unusable; Close and New
// start afresh.
//
// # Testing without a GPU
//
// The tests run the whole backend on a host device (hostdev_test.go):
// each generated source is compiled with g++ under a shim that defines
// the CUDA builtins, its kernels run on the CPU thread by thread, and the
// conformance suite (backend/conformance) compares every operation and
// dtype with the CPU backend. Compiled units are cached in the user's
// cache directory (tensorsh-cuda-hostkernels). Without g++ these tests
// skip; without a GPU the GPU tests skip, naming what is missing.
//
// # Benchmarks
//
// BenchmarkTanh times tanh(a*2+b)*c over 10^8 float32 elements, warm
// (compiled kernel, pooled memory) and cold (the first evaluation,
// NVRTC compilation included). To run it on a GPU machine with the
// `device` tool, build the test binary here and run it there:
//
//	CGO_ENABLED=0 go test -c -o cuda.test ./backend/cuda
//	./cuda.test -test.run 'GPU' -test.bench Tanh -test.benchtime 50x -test.v
package cuda
