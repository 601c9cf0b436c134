// Package sysmem reports how much memory tensorsh may use for tensors, by
// one rule shared by the evaluator and the backends: Limit is 90% of what
// Available reports.
package sysmem

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fallback is used where neither /proc/meminfo nor a cgroup limit can be
// read.
const fallback = 4 << 30

// share is the part of the available memory one allocation may take:
// the rest is left for formatting, the Go runtime and the machine.
const share = 0.9

// Limit returns the largest number of bytes one allocation may take:
// 90% of Available.
func Limit() float64 { return share * Available() }

// cache is Limit as last read, and when (time since epoch, in
// nanoseconds).
var cache struct {
	sync.Mutex
	limit atomic.Int64
	at    atomic.Int64
}

var epoch = time.Now()

// fresh is how long a reading of Limit answers LimitFor and Recent.
const fresh = time.Second

// LimitFor returns Limit, or for a need of at most a 16th of the limit
// read in the last second, that reading: reading /proc/meminfo and the
// cgroup files takes about 25 µs, as long as an elementwise statement on
// 10^6 elements, and what is available moves little next to a need far
// below it (the evaluator's check of every zeros, eye or diag had it read
// each time, 14% of diag(v) of 1000 float32). TENSORSH_MEMORY_LIMIT
// (tests) is read each time.
func LimitFor(need float64) float64 {
	c := &cache
	if os.Getenv("TENSORSH_MEMORY_LIMIT") != "" {
		l := Limit()
		c.limit.Store(int64(l))
		c.at.Store(int64(time.Since(epoch)))
		return l
	}
	c.Lock()
	defer c.Unlock()
	if l := c.limit.Load(); l <= 0 || need > float64(l)/16 || time.Since(epoch)-time.Duration(c.at.Load()) > fresh {
		c.limit.Store(int64(Limit()))
		c.at.Store(int64(time.Since(epoch)))
	}
	return float64(c.limit.Load())
}

// Recent returns the limit LimitFor read in the last second, without
// reading the environment (a check for every statement), or LimitFor(0).
func Recent() float64 {
	c := &cache
	if l := c.limit.Load(); l > 0 && time.Since(epoch)-time.Duration(c.at.Load()) <= fresh {
		return float64(l)
	}
	return LimitFor(0)
}

// Available returns the bytes of memory available for new allocations: the
// smaller of MemAvailable from /proc/meminfo and the room left under the
// process's cgroup memory limit (cgroup v2 memory.max − memory.current, or
// v1 memory.limit_in_bytes − memory.usage_in_bytes), where a container sets
// one; 4 GiB where none can be read. TENSORSH_MEMORY_LIMIT (bytes)
// overrides it, for tests and for sharing a machine.
func Available() float64 {
	if s := os.Getenv("TENSORSH_MEMORY_LIMIT"); s != "" {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v > 0 {
			return v
		}
	}
	avail, ok := memAvailable("/proc/meminfo")
	if room, limited := procCgroup.room(); limited && (!ok || room < avail) {
		return room
	}
	if !ok {
		return fallback
	}
	return avail
}

// memAvailable reads MemAvailable from a meminfo file, in bytes.
func memAvailable(path string) (float64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		if fields := strings.Fields(rest); len(fields) >= 1 {
			if kb, err := strconv.ParseFloat(fields[0], 64); err == nil {
				return kb * 1024, true
			}
		}
	}
	return 0, false
}

// noLimit is above any real limit: cgroup v1 reports "no limit" as a
// number near 2^63, v2 as "max".
const noLimit = 1 << 60

// procCgroup is this process's cgroup memory accounting, found once: the
// cgroup a process is in does not change, nor in practice its limit, so
// each Available reads only the usage files (it runs at every large
// allocation; finding the files each time took 125 µs).
var procCgroup = &cgroupFiles{self: "/proc/self/cgroup", root: "/sys/fs/cgroup"}

// cgroupFiles finds, once, the limit and usage files of the cgroup that
// self names under root.
type cgroupFiles struct {
	self, root string
	once       sync.Once
	pairs      []cgroupPair
}

// A cgroupPair is a memory limit and the usage it bounds.
type cgroupPair struct {
	limit     float64
	usageFile string
}

// room returns the bytes left under the tightest memory limit, and whether
// there is one.
func (c *cgroupFiles) room() (float64, bool) {
	c.once.Do(func() { c.pairs = cgroupLimits(c.self, c.root) })
	best, found := 0.0, false
	for _, p := range c.pairs {
		usage, _ := readBytes(p.usageFile)
		if room := max(p.limit-usage, 0); !found || room < best {
			best, found = room, true
		}
	}
	return best, found
}

// cgroupRoom returns the bytes left under the memory limit of the cgroup
// that selfCgroup (/proc/self/cgroup) names, looked up under root
// (/sys/fs/cgroup), and whether there is such a limit.
func cgroupRoom(selfCgroup, root string) (float64, bool) {
	return (&cgroupFiles{self: selfCgroup, root: root}).room()
}

// cgroupLimits returns the memory limits that apply to the cgroup that
// selfCgroup names, with their usage files. Both cgroup v2 (the "0::"
// line) and v1 (the "memory" controller) are read; in a container the
// cgroup's own files are often mounted at the root, so that is tried too.
func cgroupLimits(selfCgroup, root string) []cgroupPair {
	data, err := os.ReadFile(selfCgroup)
	if err != nil {
		return nil
	}
	var pairs []cgroupPair
	consider := func(limitFile, usageFile string) {
		limit, ok := readBytes(limitFile)
		if !ok || limit >= noLimit {
			return
		}
		pairs = append(pairs, cgroupPair{limit, usageFile})
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		path := filepath.Clean("/" + parts[2])
		switch {
		case parts[0] == "0" && parts[1] == "": // cgroup v2
			for _, dir := range []string{filepath.Join(root, path), root} {
				consider(filepath.Join(dir, "memory.max"), filepath.Join(dir, "memory.current"))
			}
		case hasController(parts[1], "memory"): // cgroup v1
			for _, dir := range []string{filepath.Join(root, "memory", path), filepath.Join(root, "memory")} {
				consider(filepath.Join(dir, "memory.limit_in_bytes"), filepath.Join(dir, "memory.usage_in_bytes"))
			}
		}
	}
	return pairs
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readBytes reads a cgroup file holding a byte count, or "max".
func readBytes(path string) (float64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(data))
	if s == "max" {
		return noLimit, true
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}
