package sysmem

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCgroupRoom checks the cgroup limits a container sets: the room left
// is the limit minus the usage, "max" and v1's near-2^63 mean no limit, and
// the smaller of the cgroup's own files and the ones at the root wins.
func TestCgroupRoom(t *testing.T) {
	write := func(path, data string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		self    string
		files   map[string]string
		want    float64
		limited bool
	}{
		{"v2 limit", "0::/box\n", map[string]string{"box/memory.max": "8000000\n", "box/memory.current": "3000000\n"}, 5e6, true},
		{"v2 max", "0::/box\n", map[string]string{"box/memory.max": "max\n", "box/memory.current": "3000000\n"}, 0, false},
		{"v2 at the root", "0::/\n", map[string]string{"memory.max": "2000000", "memory.current": "500000"}, 1.5e6, true},
		{"v1 limit", "4:memory:/job\n0::/\n", map[string]string{"memory/job/memory.limit_in_bytes": "1000000", "memory/job/memory.usage_in_bytes": "250000"}, 7.5e5, true},
		{"v1 no limit", "4:memory:/job\n", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712", "memory/memory.usage_in_bytes": "1"}, 0, false},
		{"v1 shared controllers", "3:cpu,memory:/\n", map[string]string{"memory/memory.limit_in_bytes": "4000", "memory/memory.usage_in_bytes": "5000"}, 0, true},
		{"nothing", "0::/x\n", nil, 0, false},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		write(filepath.Join(dir, "self"), tc.self)
		for p, d := range tc.files {
			write(filepath.Join(dir, "root", p), d)
		}
		got, limited := cgroupRoom(filepath.Join(dir, "self"), filepath.Join(dir, "root"))
		if got != tc.want || limited != tc.limited {
			t.Errorf("%s: cgroupRoom = %v, %v; want %v, %v", tc.name, got, limited, tc.want, tc.limited)
		}
	}
}

func TestAvailableOverride(t *testing.T) {
	t.Setenv("TENSORSH_MEMORY_LIMIT", "123456")
	if got := Available(); got != 123456 {
		t.Errorf("Available = %v", got)
	}
	if got := Limit(); math.Abs(got-111110.4) > 1e-6 {
		t.Errorf("Limit = %v", got)
	}
	t.Setenv("TENSORSH_MEMORY_LIMIT", "")
	if got := Available(); got <= 0 {
		t.Errorf("Available = %v on this machine", got)
	}
}

// TestLimitFor checks LimitFor's cache: a reading younger than a second
// answers a need of at most a 16th of it, a larger need or an older
// reading reads the limit again, TENSORSH_MEMORY_LIMIT is read each time,
// and a reading of 0 (none yet) never answers Recent (the recycler's cap
// was 0 in a script's first second once).
func TestLimitFor(t *testing.T) {
	c := &cache
	l, at := c.limit.Load(), c.at.Load()
	defer func() { c.limit.Store(l); c.at.Store(at) }()
	t.Setenv("TENSORSH_MEMORY_LIMIT", "")
	real := Limit()
	set := func(limit int64, age time.Duration) {
		c.limit.Store(limit)
		c.at.Store(int64(time.Since(epoch) - age))
	}
	set(1600, 0) // a reading no machine gives
	if got := LimitFor(100); got != 1600 {
		t.Errorf("LimitFor(100) = %v, want the cached 1600", got)
	}
	if got := Recent(); got != 1600 {
		t.Errorf("Recent() = %v, want the cached 1600", got)
	}
	if got := LimitFor(101); got == 1600 || got <= 0 {
		t.Errorf("LimitFor(101) = %v, want a new reading (%v)", got, real)
	}
	set(1600, 2*fresh)
	if got := LimitFor(0); got == 1600 {
		t.Errorf("LimitFor(0) = the reading of two seconds ago")
	}
	set(1600, 2*fresh)
	if got := Recent(); got == 1600 {
		t.Errorf("Recent() = the reading of two seconds ago")
	}
	set(0, 0)
	if got := Recent(); got <= 0 {
		t.Errorf("Recent() = %v with no reading yet", got)
	}
	set(1600, 0)
	t.Setenv("TENSORSH_MEMORY_LIMIT", "1000")
	if got := LimitFor(0); got != 900 {
		t.Errorf("LimitFor(0) = %v under TENSORSH_MEMORY_LIMIT=1000, want 900", got)
	}
}
