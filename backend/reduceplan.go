package backend

import "fmt"

// A ReducePlan describes the walk of a reduction over a contiguous
// row-major input: size-1 axes dropped, neighbouring axes of the same kind
// (kept or reduced) merged into groups. Backends share it so that the
// same reduction walks its input the same way, with the same errors.
type ReducePlan struct {
	OutShape []int // the kept axes (with 1s where keepdims), for the result
	KeptSize []int // the kept groups, outermost first
	KeptStr  []int // their strides in the input
	RedSize  []int // the reduced groups but the innermost chunk, outermost first
	RedStr   []int // their strides in the input
	Chunk    int   // elements of a contiguous reduced run: 1 when the last group is kept, 0 when M or L is 0
	Inner    int   // when the last group is kept, its size (stride 1); else 0
	M, L     int   // outputs, and reduced elements per output
}

// SumPiece is the most elements one pairwise sum covers. NumPy's
// reductions run on a buffered iterator (NPY_ITER_BUFFERED), whose inner
// loop is at most np.getbufsize() = 8192 elements even where nothing is
// copied (numpy/numpy#17649), so a contiguous run longer than that, a
// row of 20000 or a whole array of 10^6, is summed in pieces of 8192
// (the last one shorter), each piece's pairwise sum added to the running
// result in order, and narrow floats rounded after each piece:
// np.ones(10**6, np.float32).sum() adds 123 pieces. Backends sum every
// run in these pieces.
const SumPiece = 8192

// PlanReduce returns the plan of reducing shape over axes (all of them
// when axes is empty), keeping the reduced axes as 1s when keep is set.
// Axes must be non-negative; an axis out of range or given twice is an
// error with NumPy's message.
func PlanReduce(shape, axes []int, keep bool) (*ReducePlan, error) {
	nd := len(shape)
	red := make([]bool, nd)
	if len(axes) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	for _, a := range axes {
		if a < 0 || a >= nd {
			return nil, fmt.Errorf("axis %d is out of bounds for array of dimension %d", a, nd)
		}
		if red[a] {
			return nil, fmt.Errorf("duplicate value in 'axis'")
		}
		red[a] = true
	}
	p := &ReducePlan{OutShape: []int{}, M: 1, L: 1}
	for i, d := range shape {
		if red[i] {
			p.L *= d
			if keep {
				p.OutShape = append(p.OutShape, 1)
			}
		} else {
			p.M *= d
			p.OutShape = append(p.OutShape, d)
		}
	}
	if p.M == 0 || p.L == 0 {
		return p, nil // nothing to walk: Chunk 0
	}
	p.Chunk = 1
	type group struct {
		size int
		red  bool
	}
	var gs []group
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if len(gs) > 0 && gs[len(gs)-1].red == red[i] {
			gs[len(gs)-1].size *= d
			continue
		}
		gs = append(gs, group{d, red[i]})
	}
	strides := make([]int, len(gs))
	step := 1
	for i := len(gs) - 1; i >= 0; i-- {
		strides[i] = step
		step *= gs[i].size
	}
	last := len(gs) - 1
	for i, g := range gs {
		switch {
		case !g.red:
			p.KeptSize = append(p.KeptSize, g.size)
			p.KeptStr = append(p.KeptStr, strides[i])
		case i == last:
			p.Chunk = g.size
		default:
			p.RedSize = append(p.RedSize, g.size)
			p.RedStr = append(p.RedStr, strides[i])
		}
	}
	if last >= 0 && !gs[last].red {
		p.Inner = gs[last].size
	}
	return p, nil
}

// ConcatAxis checks a concatenation n of operands of the given shapes
// along n.Axes[0] (they must match n's shape but along that axis, and add
// up to it there) and returns the axis.
func ConcatAxis(n *Node, shapes [][]int) (int, error) {
	if len(n.Axes) != 1 {
		return 0, fmt.Errorf("concat needs one axis")
	}
	ax := n.Axes[0]
	if ax < 0 || ax >= len(n.Shape) {
		return 0, fmt.Errorf("concat axis %d out of range for %d dimensions", ax, len(n.Shape))
	}
	total := 0
	for i, s := range shapes {
		if len(s) != len(n.Shape) {
			return 0, fmt.Errorf("concat: operand %d has %d dimensions, result %d", i, len(s), len(n.Shape))
		}
		for d := range s {
			if d != ax && s[d] != n.Shape[d] {
				return 0, fmt.Errorf("concat: operand %d has shape %v, result %v", i, s, n.Shape)
			}
		}
		total += s[ax]
	}
	if total != n.Shape[ax] {
		return 0, fmt.Errorf("concat: operands give %d along axis %d, result has %d", total, ax, n.Shape[ax])
	}
	return ax, nil
}
