//go:build !linux

package cuda

import (
	"fmt"
	"runtime"
)

// An Error is a failed CUDA driver or NVRTC call.
type Error struct {
	Call string // the function, such as "cuLaunchKernel"
	Code int    // its result code
	Name string // the code's name, such as "CUDA_ERROR_LAUNCH_FAILED"
	Msg  string // CUDA's own description of the code
}

func (e *Error) Error() string { return fmt.Sprintf("cuda: %s: %s (%s)", e.Call, e.Msg, e.Name) }

// openCUDA fails: the backend loads libcuda, which exists on Linux only.
func openCUDA(int) (device, error) {
	return nil, fmt.Errorf("%w: the CUDA backend needs Linux (this is %s)", ErrUnavailable, runtime.GOOS)
}
