//go:build !js && !wasip1

package cpu

import "sync"

// The collector starts a cycle when the heap has grown by GOGC% (100%)
// since the last one, and at least by 4 MB. A session's heap is small
// next to its results, so at 10^4 elements (40 kB a result) it collected
// every 20 or so statements, each cycle costing as much as the
// statements between it and the last. A ballast raises that floor: a
// block the collector counts as live but the program never touches (fresh
// memory from the system is zero, so the allocator does not clear it, and
// no page of it is ever faulted in). With 32 MiB of it, a cycle comes once
// results of 32 MiB more have been made. The playground (js) has no
// virtual memory to spare and goes without.
var ballastOnce sync.Once

//lint:ignore U1000 the ballast is held, never read: the collector counts it.
var ballast []byte

const ballastSize = 32 << 20

func setBallast() {
	ballastOnce.Do(func() { ballast = make([]byte, ballastSize) })
}
