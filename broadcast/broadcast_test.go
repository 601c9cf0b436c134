package broadcast

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func sh(d ...int) []int {
	if d == nil {
		return []int{}
	}
	return d
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name   string
		shapes [][]int
		want   []int
	}{
		{"no shapes", nil, sh()},
		{"one scalar", [][]int{sh()}, sh()},
		{"two scalars", [][]int{sh(), sh()}, sh()},
		{"nil is a scalar", [][]int{nil, sh(3)}, sh(3)},
		{"scalar and vector", [][]int{sh(), sh(3)}, sh(3)},
		{"vector and scalar", [][]int{sh(3), sh()}, sh(3)},
		{"scalar and matrix", [][]int{sh(), sh(2, 3)}, sh(2, 3)},
		{"equal", [][]int{sh(2, 3), sh(2, 3)}, sh(2, 3)},
		{"right aligned", [][]int{sh(3, 4), sh(4)}, sh(3, 4)},
		{"column and row", [][]int{sh(3, 1), sh(4)}, sh(3, 4)},
		{"ones both ways", [][]int{sh(1, 4), sh(3, 1)}, sh(3, 4)},
		{"numpy doc example", [][]int{sh(8, 1, 6, 1), sh(7, 1, 5)}, sh(8, 7, 6, 5)},
		{"numpy doc example 2", [][]int{sh(15, 3, 5), sh(15, 1, 5)}, sh(15, 3, 5)},
		{"all ones", [][]int{sh(1, 1), sh(1)}, sh(1, 1)},
		{"one and scalar", [][]int{sh(1), sh()}, sh(1)},
		{"three shapes", [][]int{sh(6, 7), sh(5, 6, 1), sh(7)}, sh(5, 6, 7)},
		{"four shapes", [][]int{sh(1, 2), sh(3, 1), sh(), sh(4, 1, 1)}, sh(4, 3, 2)},
		{"single shape", [][]int{sh(2, 0, 3)}, sh(2, 0, 3)},
		{"zero with one", [][]int{sh(0), sh(1)}, sh(0)},
		{"one with zero", [][]int{sh(1), sh(0)}, sh(0)},
		{"zero with zero", [][]int{sh(0), sh(0)}, sh(0)},
		{"zero with scalar", [][]int{sh(0), sh()}, sh(0)},
		{"zero rows", [][]int{sh(0, 1), sh(3)}, sh(0, 3)},
		{"zero leading", [][]int{sh(2, 0, 1), sh(1, 5)}, sh(2, 0, 5)},
	}
	for _, tt := range tests {
		got, err := Shapes(tt.shapes...)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Shapes(%v) = %v, %v; want %v", tt.name, tt.shapes, got, err, tt.want)
		}
		// The result does not depend on the order of the operands.
		rev := make([][]int, len(tt.shapes))
		for i, s := range tt.shapes {
			rev[len(rev)-1-i] = s
		}
		if got, err := Shapes(rev...); err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s reversed: Shapes = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestShapesErrors(t *testing.T) {
	tests := []struct {
		name       string
		shapes     [][]int
		i, j, axis int
		dimA, dimB int
		msg        string
	}{
		{"brief example", [][]int{sh(3, 4), sh(5)}, 0, 1, -1, 4, 5,
			"shapes (3, 4) and (5,) cannot be broadcast: dimension 4 (axis -1) of the first does not match 5 of the second"},
		{"vectors", [][]int{sh(3), sh(4)}, 0, 1, -1, 3, 4,
			"shapes (3,) and (4,) cannot be broadcast: dimension 3 (axis -1) of the first does not match 4 of the second"},
		{"first failing axis from the right", [][]int{sh(2, 3), sh(3, 2)}, 0, 1, -1, 3, 2,
			"shapes (2, 3) and (3, 2) cannot be broadcast: dimension 3 (axis -1) of the first does not match 2 of the second"},
		{"inner axis", [][]int{sh(2, 3, 4), sh(5, 4)}, 0, 1, -2, 3, 5,
			"shapes (2, 3, 4) and (5, 4) cannot be broadcast: dimension 3 (axis -2) of the first does not match 5 of the second"},
		{"zero with three", [][]int{sh(0), sh(3)}, 0, 1, -1, 0, 3,
			"shapes (0,) and (3,) cannot be broadcast: dimension 0 (axis -1) of the first does not match 3 of the second"},
		{"three with zero", [][]int{sh(2, 3), sh(0, 1), sh(2, 1)}, 0, 1, -2, 2, 0,
			"shapes (2, 3), (0, 1), (2, 1) cannot be broadcast: dimension 2 (axis -2) of the 1st, (2, 3), does not match 0 of the 2nd, (0, 1)"},
		{"three shapes, conflict with the one that set the size", [][]int{sh(1), sh(4), sh(2, 1), sh(5)}, 1, 3, -1, 4, 5,
			"shapes (1,), (4,), (2, 1), (5,) cannot be broadcast: dimension 4 (axis -1) of the 2nd, (4,), does not match 5 of the 4th, (5,)"},
	}
	for _, tt := range tests {
		got, err := Shapes(tt.shapes...)
		if got != nil {
			t.Errorf("%s: Shapes returned %v with an error", tt.name, got)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Shapes(%v) error = %v, want *Error", tt.name, tt.shapes, err)
			continue
		}
		if e.I != tt.i || e.J != tt.j || e.Axis != tt.axis || e.DimA != tt.dimA || e.DimB != tt.dimB || e.Target {
			t.Errorf("%s: got I=%d J=%d Axis=%d DimA=%d DimB=%d Target=%v", tt.name, e.I, e.J, e.Axis, e.DimA, e.DimB, e.Target)
		}
		if !reflect.DeepEqual(e.A, tt.shapes[tt.i]) || !reflect.DeepEqual(e.B, tt.shapes[tt.j]) || !reflect.DeepEqual(e.Shapes, tt.shapes) {
			t.Errorf("%s: error shapes %v / %v / %v", tt.name, e.A, e.B, e.Shapes)
		}
		if err.Error() != tt.msg {
			t.Errorf("%s:\n got  %q\n want %q", tt.name, err.Error(), tt.msg)
		}
	}
}

func TestErrorOwnsItsShapes(t *testing.T) {
	a, b := []int{3, 4}, []int{5}
	_, err := Shapes(a, b)
	a[0], b[0] = 9, 9
	if want := "shapes (3, 4) and (5,)"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q changed with its inputs", err)
	}
}

func TestNegativeDims(t *testing.T) {
	for _, shapes := range [][][]int{{sh(-1)}, {sh(3), sh(2, -4)}} {
		_, err := Shapes(shapes...)
		var e *Error
		if err == nil || errors.As(err, &e) || !strings.Contains(err.Error(), "negative") {
			t.Errorf("Shapes(%v) error = %v, want a negative-size error", shapes, err)
		}
	}
	if err := To(sh(3), sh(-3)); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("To with a negative size: %v", err)
	}
	if got := Strides(sh(-1), sh(-1)); got != nil {
		t.Errorf("Strides of a negative shape = %v, want nil", got)
	}
}

func TestTo(t *testing.T) {
	ok := []struct{ shape, out []int }{
		{sh(), sh()},
		{sh(), sh(2, 3)},
		{sh(3), sh(2, 3)},
		{sh(1), sh(0)},
		{sh(0), sh(4, 0)},
		{sh(2, 1), sh(2, 5)},
		{sh(1, 1), sh(1, 1)},
	}
	for _, tt := range ok {
		if err := To(tt.shape, tt.out); err != nil {
			t.Errorf("To(%v, %v) = %v", tt.shape, tt.out, err)
		}
	}
	bad := []struct {
		shape, out []int
		axis       int
		msg        string
	}{
		{sh(3), sh(1), -1, "shape (3,) cannot be broadcast to (1,): dimension 3 (axis -1) does not match 1; only a size 1 can be stretched"},
		{sh(2, 3), sh(3, 3), -2, "shape (2, 3) cannot be broadcast to (3, 3): dimension 2 (axis -2) does not match 3; only a size 1 can be stretched"},
		{sh(0), sh(3), -1, "shape (0,) cannot be broadcast to (3,): dimension 0 (axis -1) does not match 3; only a size 1 can be stretched"},
		{sh(1, 3), sh(3), -2, "shape (1, 3) cannot be broadcast to (3,): it has 2 dimensions and the target only 1"},
		{sh(3), sh(), -1, "shape (3,) cannot be broadcast to (): it has 1 dimensions and the target only 0"},
	}
	for _, tt := range bad {
		err := To(tt.shape, tt.out)
		var e *Error
		if !errors.As(err, &e) || !e.Target || e.Axis != tt.axis {
			t.Errorf("To(%v, %v) = %v (%+v), want a target *Error at axis %d", tt.shape, tt.out, err, e, tt.axis)
			continue
		}
		if err.Error() != tt.msg {
			t.Errorf("To(%v, %v):\n got  %q\n want %q", tt.shape, tt.out, err, tt.msg)
		}
	}
}

func TestStrides(t *testing.T) {
	tests := []struct {
		shape, out, want []int
	}{
		{sh(), sh(), sh()},
		{sh(), sh(2, 3), sh(0, 0)},
		{sh(3), sh(3), sh(1)},
		{sh(3), sh(2, 3), sh(0, 1)},
		{sh(2, 3), sh(2, 3), sh(3, 1)},
		{sh(2, 1), sh(2, 3), sh(1, 0)},
		{sh(1, 3), sh(4, 3), sh(0, 1)},
		{sh(4, 1, 5), sh(2, 4, 3, 5), sh(0, 5, 0, 1)},
		{sh(2, 3, 4), sh(2, 3, 4), sh(12, 4, 1)},
		{sh(1), sh(0), sh(0)},
		{sh(0, 2), sh(0, 2), sh(2, 1)},
		{sh(3), sh(1), nil},
		{sh(1, 3), sh(3), nil},
	}
	for _, tt := range tests {
		if got := Strides(tt.shape, tt.out); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Strides(%v, %v) = %v, want %v", tt.shape, tt.out, got, tt.want)
		}
	}
}

// TestStridesRead broadcasts two small row-major tensors with Strides and
// checks every element against a direct index computation.
func TestStridesRead(t *testing.T) {
	a, b := sh(4, 1, 3), sh(2, 1)
	out, err := Shapes(a, b)
	if err != nil {
		t.Fatal(err)
	}
	sa, sb := Strides(a, out), Strides(b, out)
	for i := 0; i < 4; i++ {
		for j := 0; j < 2; j++ {
			for k := 0; k < 3; k++ {
				idx := []int{i, j, k}
				offA, offB := 0, 0
				for ax, x := range idx {
					offA += x * sa[ax]
					offB += x * sb[ax]
				}
				if want := i*3 + k; offA != want { // a[i, 0, k]
					t.Errorf("a offset at %v = %d, want %d", idx, offA, want)
				}
				if want := j; offB != want { // b[j, 0]
					t.Errorf("b offset at %v = %d, want %d", idx, offB, want)
				}
			}
		}
	}
}

func TestFormatShape(t *testing.T) {
	tests := []struct {
		s    []int
		want string
	}{
		{nil, "()"},
		{sh(), "()"},
		{sh(5), "(5,)"},
		{sh(0), "(0,)"},
		{sh(3, 4), "(3, 4)"},
		{sh(2, 3, 4), "(2, 3, 4)"},
		{sh(-1), "(-1,)"},
	}
	for _, tt := range tests {
		if got := FormatShape(tt.s); got != tt.want {
			t.Errorf("FormatShape(%v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	want := map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"}
	for n, w := range want {
		if got := ordinal(n); got != w {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, w)
		}
	}
}
