//go:build !unix

package cpu

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
