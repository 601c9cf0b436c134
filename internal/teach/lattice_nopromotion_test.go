package teach

import (
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/promote"
)

// TestLatticeNoPromotion: TensorFlow promotes no dtype to another
// (tensorflow/python/framework/ops.py: a kernel takes one dtype T), so its
// graph has no edges; the picture says so plainly instead of listing an
// empty "edges" section.
func TestLatticeNoPromotion(t *testing.T) {
	g := promote.NewGraph(lookup(t, "tf"), promote.Where, false)
	if len(g.Edges) != 0 {
		t.Fatalf("tf: %d edges, want none", len(g.Edges))
	}
	s := LatticeText(g, Options{Width: 80})
	for _, want := range []string{"No implicit promotion: tf has no dtype that promotes to another", "no edges: no dtype promotes to another"} {
		if !strings.Contains(s, want) {
			t.Errorf("tf lattice does not say %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "edges (a → b") {
		t.Errorf("tf lattice lists an empty edges section:\n%s", s)
	}
	// A graph with edges keeps its list.
	g = promote.NewGraph(lookup(t, "numpy"), promote.Where, true)
	if s := LatticeText(g, Options{Width: 40}); !strings.Contains(s, "edges (a → b: a promotes to b):") || strings.Contains(s, "no edges") {
		t.Errorf("numpy lattice at width 40 lost its edge list:\n%s", s)
	}
}
