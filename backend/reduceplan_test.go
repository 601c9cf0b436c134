package backend

import (
	"reflect"
	"testing"
)

func TestPlanReduce(t *testing.T) {
	tests := []struct {
		shape, axes []int
		keep        bool
		want        ReducePlan
		err         string
	}{
		{shape: []int{2, 3, 4}, axes: nil, want: ReducePlan{OutShape: []int{}, Chunk: 24, M: 1, L: 24}},
		{shape: []int{2, 3, 4}, axes: []int{2}, keep: true,
			want: ReducePlan{OutShape: []int{2, 3, 1}, KeptSize: []int{6}, KeptStr: []int{4}, Chunk: 4, M: 6, L: 4}},
		{shape: []int{2, 3, 4}, axes: []int{0},
			want: ReducePlan{OutShape: []int{3, 4}, KeptSize: []int{12}, KeptStr: []int{1}, RedSize: []int{2}, RedStr: []int{12}, Chunk: 1, Inner: 12, M: 12, L: 2}},
		// Reduced axes on both sides of a kept one: an outer reduced
		// group, then the contiguous chunk.
		{shape: []int{5, 1, 3, 4}, axes: []int{0, 3},
			want: ReducePlan{OutShape: []int{1, 3}, KeptSize: []int{3}, KeptStr: []int{4},
				RedSize: []int{5}, RedStr: []int{12}, Chunk: 4, M: 3, L: 20}},
		{shape: []int{2, 0, 3}, axes: []int{1}, want: ReducePlan{OutShape: []int{2, 3}, M: 6, L: 0}},
		{shape: []int{2, 3}, axes: []int{2}, err: "axis 2 is out of bounds for array of dimension 2"},
		{shape: []int{2, 3}, axes: []int{1, 1}, err: "duplicate value in 'axis'"},
	}
	for _, tt := range tests {
		got, err := PlanReduce(tt.shape, tt.axes, tt.keep)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("PlanReduce(%v, %v): error %v, want %q", tt.shape, tt.axes, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("PlanReduce(%v, %v, %v) = %+v, %v\nwant %+v", tt.shape, tt.axes, tt.keep, got, err, tt.want)
		}
	}
}

func TestConcatAxis(t *testing.T) {
	n := &Node{Op: OpConcat, Shape: []int{2, 5}, Axes: []int{1}}
	if ax, err := ConcatAxis(n, [][]int{{2, 3}, {2, 2}}); ax != 1 || err != nil {
		t.Errorf("ConcatAxis = %d, %v", ax, err)
	}
	for _, c := range []struct {
		axes   []int
		shapes [][]int
		err    string
	}{
		{[]int{0, 1}, nil, "concat needs one axis"},
		{[]int{2}, nil, "concat axis 2 out of range for 2 dimensions"},
		{[]int{1}, [][]int{{2, 3}, {2}}, "concat: operand 1 has 1 dimensions, result 2"},
		{[]int{1}, [][]int{{2, 3}, {3, 2}}, "concat: operand 1 has shape [3 2], result [2 5]"},
		{[]int{1}, [][]int{{2, 3}, {2, 3}}, "concat: operands give 6 along axis 1, result has 5"},
	} {
		n.Axes = c.axes
		if _, err := ConcatAxis(n, c.shapes); err == nil || err.Error() != c.err {
			t.Errorf("ConcatAxis(%v, %v): %v, want %q", c.axes, c.shapes, err, c.err)
		}
	}
}
