package backend

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestLayout(t *testing.T) {
	l := Layout{Shape: []int{2, 3}, Strides: RowMajor([]int{2, 3})}
	if !reflect.DeepEqual(l.Strides, []int{3, 1}) {
		t.Fatalf("RowMajor = %v", l.Strides)
	}
	tr, err := l.Transpose([]int{1, 0})
	if err != nil || !reflect.DeepEqual(tr.Shape, []int{3, 2}) || !reflect.DeepEqual(tr.Strides, []int{1, 3}) {
		t.Errorf("Transpose = %+v, %v", tr, err)
	}
	if _, err := l.Transpose([]int{0, 0}); err == nil || !strings.Contains(err.Error(), "not a permutation") {
		t.Errorf("Transpose([0 0]) error = %v", err)
	}
	// x[1, ::-1]: row 1 reversed.
	sl, err := l.Slice([]Slice{{Start: 1, Stop: 2, Step: 1, Drop: true}, {Start: 2, Stop: -1, Step: -1}}, []int{3})
	if err != nil || sl.Off != 5 || !reflect.DeepEqual(sl.Strides, []int{-1}) {
		t.Errorf("Slice = %+v, %v", sl, err)
	}
	if _, err := l.Slice([]Slice{{Start: 2, Stop: 3, Step: 1, Drop: true}, {Start: 0, Stop: 3, Step: 1}}, []int{3}); err == nil || !strings.Contains(err.Error(), "out of bounds") {
		t.Errorf("Slice out of bounds error = %v", err)
	}
	bs, err := Layout{Shape: []int{3, 1}, Strides: []int{1, 1}}.BroadcastStrides([]int{2, 3, 4})
	if err != nil || !reflect.DeepEqual(bs, []int{0, 1, 0}) {
		t.Errorf("BroadcastStrides = %v, %v", bs, err)
	}
	if _, err := l.BroadcastStrides([]int{4}); err == nil {
		t.Error("BroadcastStrides to a shorter shape: no error")
	}
	for _, tc := range []struct {
		n    *Node
		want string
	}{
		{&Node{Op: OpAdd, Args: []*Node{{Op: OpInput}}}, "takes 2 arguments"},
		{&Node{Op: OpNeg, Args: []*Node{nil}}, "nil argument"},
		{&Node{Op: OpConcat}, "at least one"},
		{&Node{Op: NumOps}, "unknown operation"},
		{&Node{Op: OpInput}, ""},
	} {
		err := CheckArgs(tc.n)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckArgs(%v) = %v, want %q", tc.n.Op, err, tc.want)
		}
	}
}

// TestSliceLenExtremeSteps checks SliceLen against len(range(start, stop,
// step)) for steps at the ends of int64, where (stop-start+step-1)/step
// overflowed (arange(5)[::2**63-1] was empty; NumPy and Python give [0]).
func TestSliceLenExtremeSteps(t *testing.T) {
	const maxInt, minInt = math.MaxInt64, math.MinInt64
	tests := []struct {
		s    Slice
		want int
	}{
		{Slice{Start: 0, Stop: 5, Step: maxInt}, 1},
		{Slice{Start: 0, Stop: 5, Step: maxInt - 3}, 1},
		{Slice{Start: 4, Stop: -1, Step: minInt}, 1},
		{Slice{Start: 4, Stop: -1, Step: -maxInt}, 1},
		{Slice{Start: 1, Stop: 4, Step: 1 << 62}, 1},
		{Slice{Start: 0, Stop: 5, Step: 2}, 3},
		{Slice{Start: 4, Stop: -1, Step: -2}, 3},
		{Slice{Start: 0, Stop: 0, Step: maxInt}, 0},
		{Slice{Start: 3, Stop: 3, Step: minInt}, 0},
		{Slice{Start: 0, Stop: maxInt, Step: 1}, maxInt},
	}
	for _, tc := range tests {
		if got := SliceLen(tc.s); got != tc.want {
			t.Errorf("SliceLen(%+v) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// Contiguous is NumPy's C_CONTIGUOUS flag with relaxed strides
// (numpy/_core/src/multiarray/flagsobject.c, _UpdateContiguousFlags): the
// strides of size-1 axes do not matter, and an empty array is contiguous.
func TestContiguous(t *testing.T) {
	for _, c := range []struct {
		l    Layout
		want bool
	}{
		{Layout{Shape: []int{}, Strides: []int{}}, true},
		{Layout{Shape: []int{2, 3}, Strides: []int{3, 1}, Off: 5}, true},
		{Layout{Shape: []int{2, 3}, Strides: []int{1, 2}}, false},
		{Layout{Shape: []int{2, 1, 3}, Strides: []int{3, 99, 1}}, true},
		{Layout{Shape: []int{3}, Strides: []int{-1}, Off: 2}, false},
		{Layout{Shape: []int{3}, Strides: []int{0}}, false},
		{Layout{Shape: []int{1}, Strides: []int{0}}, true},
		{Layout{Shape: []int{2, 0, 3}, Strides: []int{7, 7, 7}}, true},
		{Layout{Shape: []int{2, 3}, Strides: []int{4, 1}}, false},
	} {
		if got := c.l.Contiguous(); got != c.want {
			t.Errorf("%+v.Contiguous() = %v, want %v", c.l, got, c.want)
		}
	}
}
