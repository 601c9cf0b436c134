package promote

import (
	"math/bits"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A latticeNode is a node of a promotion lattice given by its covering
// edges: a dtype, or one of up to eight extra nodes (weak types) numbered
// after the dtypes.
type latticeNode uint8

// latticeExtra is the first extra node.
const latticeExtra = latticeNode(dtypes.NumDTypes)

// A lattice holds each node's upper bounds (itself included) as a bit
// set; 0 for nodes not in the lattice.
type lattice [latticeExtra + 8]uint64

// newLattice computes the upper bounds of the lattice whose covering edges
// are up (each node maps to the nodes immediately above it).
func newLattice(up map[latticeNode][]latticeNode) *lattice {
	var l lattice
	var ub func(n latticeNode) uint64
	ub = func(n latticeNode) uint64 {
		s := uint64(1) << n
		for _, m := range up[n] {
			s |= ub(m)
		}
		return s
	}
	for n := range up {
		l[n] = ub(n)
	}
	return &l
}

// join is the least upper bound of nodes; false when there is none (or
// when a node is not in the lattice).
func (l *lattice) join(nodes ...latticeNode) (latticeNode, bool) {
	common := ^uint64(0)
	var in uint64
	for _, n := range nodes {
		if int(n) >= len(l) || l[n] == 0 {
			return 0, false
		}
		common &= l[n]
		in |= 1 << n
	}
	lub := common & in
	if lub == 0 {
		for c := range latticeNode(len(l)) {
			if common&(1<<c) != 0 && common&^l[c] == 0 {
				lub |= 1 << c
			}
		}
	}
	if bits.OnesCount64(lub) != 1 {
		return 0, false
	}
	return latticeNode(bits.TrailingZeros64(lub)), true
}
