package cpu

import (
	"reflect"
	"runtime"
	"testing"
)

// TestSliceBox checks that a box gives the slices of its storage that
// slicing gives, for several element types, across collections (the box's
// header must keep the storage alive and be scanned as a slice), and that
// holds tells storages apart.
func TestSliceBox(t *testing.T) {
	f := make([]float64, 100)
	for i := range f {
		f[i] = float64(i)
	}
	b := newSliceBox(f)
	addr := &f[0]
	f = nil // only the box refers to the storage now
	for _, r := range [][2]int{{0, 100}, {3, 7}, {99, 100}, {50, 50}, {0, 0}} {
		runtime.GC()
		s := b.slice(r[0], r[1]).([]float64)
		if len(s) != r[1]-r[0] || cap(s) != r[1]-r[0] {
			t.Fatalf("slice(%d, %d): len %d cap %d", r[0], r[1], len(s), cap(s))
		}
		for i, v := range s {
			if v != float64(r[0]+i) {
				t.Fatalf("slice(%d, %d)[%d] = %v", r[0], r[1], i, v)
			}
		}
	}
	if s := b.slice(0, 1).([]float64); &s[0] != addr {
		t.Error("the box does not slice its storage in place")
	}
	u := []uint8{1, 2, 3, 4, 5}
	w := &worker{}
	if s := w.boxed(2, u, 1, 4).([]uint8); len(s) != 3 || s[0] != 2 || s[2] != 4 {
		t.Errorf("boxed uint8: %v", s)
	}
	u2 := append([]uint8(nil), u...)
	u2[1] = 9
	if s := w.boxed(2, u2, 1, 2).([]uint8); s[0] != 9 {
		t.Errorf("boxed of another storage in the same box: %v (the box was not remade)", s)
	}
	if w.boxes[2].holds(u) || !w.boxes[2].holds(u2) || w.boxes[2].holds(u2[:4]) {
		t.Error("holds does not tell storages apart")
	}
	defer func() {
		if recover() == nil {
			t.Error("slice past the storage did not panic")
		}
	}()
	b.slice(0, 101)
}

// TestFillSame checks fillSame against a store per element for every
// element size it stores by words and lengths around its 8- and 32-byte
// steps, at unaligned starts.
func TestFillSame(t *testing.T) {
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %v, want %v", name, got, want)
		}
	}
	for n := 0; n < 80; n++ {
		for off := 0; off < 3; off++ {
			b := make([]int8, n+off+2)
			fillSame(b[off:off+n], -3)
			w := make([]int8, n+off+2)
			for i := off; i < off+n; i++ {
				w[i] = -3
			}
			check("int8", b, w)
			h := make([]uint16, n+off+2)
			fillSame(h[off:off+n], 0xabcd)
			wh := make([]uint16, n+off+2)
			for i := off; i < off+n; i++ {
				wh[i] = 0xabcd
			}
			check("uint16", h, wh)
			f := make([]float32, n+off+2)
			fillSame(f[off:off+n], float32(-1.5))
			wf := make([]float32, n+off+2)
			for i := off; i < off+n; i++ {
				wf[i] = -1.5
			}
			check("float32", f, wf)
			c := make([]complex64, n+off+2)
			fillSame(c[off:off+n], complex(1, 2))
			wc := make([]complex64, n+off+2)
			for i := off; i < off+n; i++ {
				wc[i] = complex(1, 2)
			}
			check("complex64", c, wc)
		}
	}
}
