// Package sysmem reports how much memory tensorsh may use for tensors.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// fallback is used where /proc/meminfo cannot be read.
const fallback = 4 << 30

// Available returns the bytes of memory available for new allocations:
// MemAvailable from /proc/meminfo, or 4 GiB where that cannot be read.
// TENSORSH_MEMORY_LIMIT (bytes) overrides it, for tests and for sharing a
// machine.
func Available() float64 {
	if s := os.Getenv("TENSORSH_MEMORY_LIMIT"); s != "" {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v > 0 {
			return v
		}
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "MemAvailable:") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) >= 2 {
			if kb, err := strconv.ParseFloat(fields[1], 64); err == nil {
				return kb * 1024
			}
		}
	}
	return fallback
}
