package promote

import "testing"

// torchRefs checks the torch policy against every cell of refs/torch.json:
// pairs (torch.promote_types), tensors meeting Python scalars
// (tensor_scalar) and tensors meeting 0-dim tensors (tensor_zerodim).
// Cells whose result is complex32 must be errors that name it.
func torchRefs(t testing.TB, report func(string, ...any)) refsTally {
	p := refsMust(t, "torch")
	var n refsTally
	n.Add(refsCheck(t, report, p, "torch", "pairs", refsAsArray(p, false), refsAsArray(p, false), nil))
	n.Add(refsCheck(t, report, p, "torch", "tensor_scalar", refsAsArray(p, false), refsAsLiteral(p), nil))
	n.Add(refsCheck(t, report, p, "torch", "tensor_zerodim", refsAsArray(p, false), refsAsZeroDim, nil))
	return n
}

func TestTorchRefs(t *testing.T) {
	n := torchRefs(t, t.Errorf)
	t.Logf("torch: %d cells checked, %d mismatches", n.Checked, n.Mismatches)
	if n.Checked != 289+170+289 {
		t.Errorf("torch: checked %d cells, want %d", n.Checked, 289+170+289)
	}
}
