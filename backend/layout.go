package backend

import (
	"fmt"
	"slices"
)

// A Layout places the elements of a strided view in its buffer: the
// element at multi-index i is at Off + Σ i[k]*Strides[k]. Backends share
// these rules so that a transpose, a slice or a broadcast is a view, not a
// copy, and gives the same shapes and errors everywhere.
type Layout struct {
	Shape, Strides []int
	Off            int
}

// RowMajor returns the strides of a contiguous row-major tensor of shape.
func RowMajor(shape []int) []int {
	s := make([]int, len(shape))
	k := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = k
		k *= shape[i]
	}
	return s
}

// Contiguous reports whether the elements of l are consecutive from Off
// in row-major order (the strides of size-1 axes do not matter, and an
// empty layout is contiguous).
func (l Layout) Contiguous() bool {
	if slices.Contains(l.Shape, 0) {
		return true
	}
	step := 1
	for i := len(l.Shape) - 1; i >= 0; i-- {
		if l.Shape[i] != 1 && l.Strides[i] != step {
			return false
		}
		step *= l.Shape[i]
	}
	return true
}

// Coalesce drops the size-1 axes of shape and merges neighbouring axes
// that every stride set walks as one (strides[k][i] == strides[k][i+1] *
// shape[i+1]). It returns at least one axis (of size 1 for a scalar).
func Coalesce(shape []int, strides [][]int) ([]int, [][]int) {
	out := slices.Clone(shape)
	outSt := make([][]int, len(strides))
	for k, s := range strides {
		outSt[k] = slices.Clone(s)
	}
	n := CoalesceInPlace(out, outSt)
	if n == 0 {
		out = []int{1}
		for k := range strides {
			outSt[k] = []int{0}
		}
		return out, outSt
	}
	for k := range outSt {
		outSt[k] = outSt[k][:n]
	}
	return out[:n], outSt
}

// CoalesceInPlace is Coalesce rewriting shape and strides in place: it
// returns how many of their first elements hold the coalesced axes, 0
// where Coalesce gives the one axis of size 1.
func CoalesceInPlace(shape []int, strides [][]int) int {
	n := 0
	// Axis i is read before anything is written at i: writes go to the
	// axes before it, or to i itself once read.
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if n > 0 {
			last := n - 1
			merge := true
			for _, s := range strides {
				if s[last] != s[i]*d {
					merge = false
					break
				}
			}
			if merge {
				shape[last] *= d
				for _, s := range strides {
					s[last] = s[i]
				}
				continue
			}
		}
		shape[n] = d
		for _, s := range strides {
			s[n] = s[i]
		}
		n++
	}
	return n
}

// BroadcastStrides returns the strides that read l as shape out (0 along
// broadcast dimensions), or an error when l's shape does not broadcast to
// out.
func (l Layout) BroadcastStrides(out []int) ([]int, error) {
	return l.AppendBroadcastStrides(nil, out)
}

// AppendBroadcastStrides is BroadcastStrides appending the strides to
// dst.
func (l Layout) AppendBroadcastStrides(dst, out []int) ([]int, error) {
	if len(l.Shape) > len(out) {
		return nil, fmt.Errorf("cannot broadcast shape %v to %v", l.Shape, out)
	}
	dst = slices.Grow(dst, len(out))
	s := dst[len(dst) : len(dst)+len(out)]
	clear(s)
	dst = dst[:len(dst)+len(out)]
	lead := len(out) - len(l.Shape)
	for i, d := range l.Shape {
		switch {
		case d == out[lead+i]:
			if d != 1 {
				s[lead+i] = l.Strides[i]
			}
		case d == 1:
		default:
			return nil, fmt.Errorf("cannot broadcast shape %v to %v", l.Shape, out)
		}
	}
	return dst, nil
}

// Transpose returns l with its dimensions permuted: dimension i of the
// result is dimension perm[i] of l.
func (l Layout) Transpose(perm []int) (Layout, error) {
	if len(perm) != len(l.Shape) {
		return Layout{}, fmt.Errorf("transpose: %d axes for %d dimensions", len(perm), len(l.Shape))
	}
	seen := make([]bool, len(perm))
	v := Layout{Off: l.Off, Shape: make([]int, len(perm)), Strides: make([]int, len(perm))}
	for i, p := range perm {
		if p < 0 || p >= len(perm) || seen[p] {
			return Layout{}, fmt.Errorf("transpose: axes %v are not a permutation", perm)
		}
		seen[p] = true
		v.Shape[i] = l.Shape[p]
		v.Strides[i] = l.Strides[p]
	}
	return v, nil
}

// SliceLen returns the number of elements Python's range(start, stop,
// step) has.
//
// It does not overflow for any step, 2**63-1 and -2**63 included: the
// distance is divided in unsigned arithmetic, where -(-2**63) is 2**63.
func SliceLen(s Slice) int {
	switch {
	case s.Step > 0 && s.Stop > s.Start:
		return 1 + int(uint(s.Stop-s.Start-1)/uint(s.Step))
	case s.Step < 0 && s.Start > s.Stop:
		return 1 + int(uint(s.Start-s.Stop-1)/uint(-s.Step))
	}
	return 0
}

// Slice returns the view of l that slices selects, one Slice per
// dimension (a Drop slice removes its dimension). want is the shape the
// plan expects.
func (l Layout) Slice(sl []Slice, want []int) (Layout, error) {
	if len(sl) != len(l.Shape) {
		return Layout{}, fmt.Errorf("slice: %d slices for %d dimensions", len(sl), len(l.Shape))
	}
	v := Layout{Off: l.Off}
	empty := false
	for i, s := range sl {
		dim := l.Shape[i]
		if s.Step == 0 {
			return Layout{}, fmt.Errorf("slice step cannot be zero")
		}
		if s.Drop {
			if s.Start < 0 || s.Start >= dim {
				return Layout{}, fmt.Errorf("index %d is out of bounds for axis %d with size %d", s.Start, i, dim)
			}
			v.Off += s.Start * l.Strides[i]
			continue
		}
		m := SliceLen(s)
		if m > 0 {
			last := s.Start + (m-1)*s.Step
			if s.Start < 0 || s.Start >= dim || last < 0 || last >= dim {
				return Layout{}, fmt.Errorf("slice %d:%d:%d is out of range for axis %d with size %d", s.Start, s.Stop, s.Step, i, dim)
			}
			v.Off += s.Start * l.Strides[i]
		} else {
			empty = true
		}
		step := s.Step
		if m <= 1 {
			step = 1 // never taken, and stride×step could overflow
		}
		v.Shape = append(v.Shape, m)
		v.Strides = append(v.Strides, l.Strides[i]*step)
	}
	if empty {
		v.Off = 0
	}
	if v.Shape == nil {
		v.Shape, v.Strides = []int{}, []int{}
	}
	if !slices.Equal(v.Shape, want) {
		return Layout{}, fmt.Errorf("slice gives shape %v, plan says %v", v.Shape, want)
	}
	return v, nil
}

// CheckArgs checks that n has the number of arguments its operation takes,
// none of them nil.
func CheckArgs(n *Node) error {
	want := -1
	switch {
	case n.Op == OpInput:
		want = 0
	case n.Op == OpCast || n.Op >= OpNeg && n.Op <= OpIsFinite:
		want = 1
	case n.Op >= OpAdd && n.Op <= OpHypot:
		want = 2
	case n.Op == OpWhere || n.Op == OpFMA:
		want = 3
	case n.Op == OpMatMul:
		want = 2
	case n.Op == OpConcat:
		if len(n.Args) == 0 {
			return fmt.Errorf("concat needs at least one argument")
		}
	case n.Op < NumOps:
		want = 1
	default:
		return fmt.Errorf("unknown operation %v", n.Op)
	}
	if want >= 0 && len(n.Args) != want {
		return fmt.Errorf("%v takes %d arguments, got %d", n.Op, want, len(n.Args))
	}
	for _, a := range n.Args {
		if a == nil {
			return fmt.Errorf("%v has a nil argument", n.Op)
		}
	}
	return nil
}
