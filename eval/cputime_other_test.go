//go:build !unix

package eval

import "time"

// cpuTime returns 0 where the process's CPU time is not at hand.
func cpuTime() time.Duration { return 0 }
