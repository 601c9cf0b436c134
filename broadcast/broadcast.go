// Package broadcast implements the shape broadcasting rule shared by NumPy,
// JAX, PyTorch, Triton, MAX and the Array API standard.
//
// Shapes are aligned on the right; a missing leading dimension counts as 1;
// two sizes are compatible when they are equal or one of them is 1, and the
// result takes the other. A size of 0 is an ordinary size: it broadcasts with
// 1 (giving 0) and with 0, but not with any other size.
//
// The package works on shapes only and never touches data.
package broadcast

import (
	"fmt"
	"strconv"
	"strings"
)

// An Error reports shapes that cannot be broadcast together. It names the
// two shapes that conflict and the first axis where they do, counted from
// the right (the axis NumPy would name as -1 is the last one).
type Error struct {
	// Shapes holds every shape given to Shapes (for To: the shape and the
	// target shape).
	Shapes [][]int
	// I and J index the two conflicting shapes in Shapes, I < J.
	I, J int
	// A and B are Shapes[I] and Shapes[J].
	A, B []int
	// Axis is the first conflicting axis, counted from the right: -1 is
	// the last axis.
	Axis int
	// DimA and DimB are the sizes of A and B at Axis.
	DimA, DimB int
	// Target is set when B is the requested shape of To rather than an
	// operand: A may only be stretched, never B. If A has more axes than
	// B, Axis is the first axis (from the right) that B lacks.
	Target bool
}

// Error returns a message that names both full shapes and the first
// failing pair of sizes, e.g. "shapes (3, 4) and (5,) cannot be broadcast:
// dimension 4 (axis -1) of the first does not match 5 of the second".
func (e *Error) Error() string {
	if e.Target {
		if len(e.A) > len(e.B) {
			// Extra leading axes have nowhere to go, even of size 1.
			return fmt.Sprintf("shape %s cannot be broadcast to %s: it has %d dimensions and the target only %d",
				FormatShape(e.A), FormatShape(e.B), len(e.A), len(e.B))
		}
		return fmt.Sprintf("shape %s cannot be broadcast to %s: dimension %d (axis %d) does not match %d; only a size 1 can be stretched",
			FormatShape(e.A), FormatShape(e.B), e.DimA, e.Axis, e.DimB)
	}
	if len(e.Shapes) == 2 {
		return fmt.Sprintf("shapes %s and %s cannot be broadcast: dimension %d (axis %d) of the first does not match %d of the second",
			FormatShape(e.A), FormatShape(e.B), e.DimA, e.Axis, e.DimB)
	}
	all := make([]string, len(e.Shapes))
	for i, s := range e.Shapes {
		all[i] = FormatShape(s)
	}
	return fmt.Sprintf("shapes %s cannot be broadcast: dimension %d (axis %d) of the %s, %s, does not match %d of the %s, %s",
		strings.Join(all, ", "), e.DimA, e.Axis, ordinal(e.I+1), FormatShape(e.A), e.DimB, ordinal(e.J+1), FormatShape(e.B))
}

// ordinal returns "1st", "2nd", "3rd", "4th", … for n >= 1.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// checkDims returns an error if a shape has a negative size.
func checkDims(shapes ...[]int) error {
	for _, s := range shapes {
		for i, d := range s {
			if d < 0 {
				return fmt.Errorf("invalid shape %s: dimension %d (axis %d) is negative", FormatShape(s), d, i-len(s))
			}
		}
	}
	return nil
}

// dim returns the size of s at axis counted from the right (-1 is the last
// axis), 1 where s has no such axis.
func dim(s []int, axis int) int {
	if i := len(s) + axis; i >= 0 {
		return s[i]
	}
	return 1
}

// Shapes returns the shape that the given shapes broadcast to. With no
// shapes, or only scalar shapes (), it returns the scalar shape (an empty,
// non-nil slice). Incompatible shapes give an *Error naming the two shapes
// and the first conflicting axis from the right; a negative size gives a
// plain error.
func Shapes(shapes ...[]int) ([]int, error) {
	if err := checkDims(shapes...); err != nil {
		return nil, err
	}
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make([]int, rank)
	for axis := -1; axis >= -rank; axis-- {
		size, from := 1, -1 // the size so far and the shape that set it
		for j, s := range shapes {
			d := dim(s, axis)
			switch {
			case d == 1 || d == size:
			case size == 1:
				size, from = d, j
			default:
				return nil, &Error{
					Shapes: copyShapes(shapes),
					I:      from, J: j,
					A: clone(shapes[from]), B: clone(s),
					Axis: axis, DimA: size, DimB: d,
				}
			}
		}
		out[rank+axis] = size
	}
	return out, nil
}

// To reports whether shape can be broadcast to the shape out without
// changing out (as NumPy's broadcast_to requires): shape may not have more
// axes than out, and each of its sizes must equal the size of out on that
// axis or be 1. The error is an *Error with Target set, or a plain error for
// negative sizes.
func To(shape, out []int) error {
	if err := checkDims(shape, out); err != nil {
		return err
	}
	fail := func(axis int) error {
		return &Error{
			Shapes: copyShapes([][]int{shape, out}),
			I:      0, J: 1,
			A: clone(shape), B: clone(out),
			Axis: axis, DimA: dim(shape, axis), DimB: dim(out, axis),
			Target: true,
		}
	}
	if len(shape) > len(out) {
		return fail(-len(out) - 1)
	}
	for axis := -1; axis >= -len(shape); axis-- {
		if d := dim(shape, axis); d != 1 && d != dim(out, axis) {
			return fail(axis)
		}
	}
	return nil
}

// Strides returns, for each axis of out, the element stride to use when
// reading a row-major (C-order) contiguous tensor of the given shape as if
// it had been broadcast to out: 0 on broadcast axes (the leading axes that
// shape lacks and the axes where shape has size 1), the ordinary row-major
// stride elsewhere. The element of out at index (i0, …, in) is at offset
// sum(ik * strides[k]). It returns nil if shape cannot be broadcast to out
// (see To).
func Strides(shape, out []int) []int {
	if To(shape, out) != nil {
		return nil
	}
	strides := make([]int, len(out))
	step := 1
	for axis := -1; axis >= -len(shape); axis-- {
		d := dim(shape, axis)
		if d != 1 {
			strides[len(out)+axis] = step
		}
		step *= d
	}
	return strides
}

// FormatShape returns s written as a Python tuple: "(3, 4)", "(5,)", "()".
func FormatShape(s []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(s) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

func clone(s []int) []int {
	c := make([]int, len(s))
	copy(c, s)
	return c
}

func copyShapes(shapes [][]int) [][]int {
	c := make([][]int, len(shapes))
	for i, s := range shapes {
		c[i] = clone(s)
	}
	return c
}
