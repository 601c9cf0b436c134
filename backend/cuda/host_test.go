//go:build linux

package cuda

import (
	"context"
	"os"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/conformance"
	"github.com/tensorsh/tensorsh/backend/cpu"
	"github.com/tensorsh/tensorsh/dtypes"
)

func TestHostSmoke(t *testing.T) {
	b, _ := newHostBackend(t)
	a := in(&backend.Tensor{DType: dtypes.F32, Shape: []int{2, 3}, Data: []float32{1, 2, 3, 4, 5, 6}})
	c := in(&backend.Tensor{DType: dtypes.F32, Shape: []int{3}, Data: []float32{10, 20, 30}})
	n := nb(backend.OpMul, nb(backend.OpAdd, a, c), c)
	res, err := b.Run(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Fetch(res)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := cpu.New().Run(context.Background(), n)
	t.Logf("got %v want %v", got.Data, want.Data)
	if !equalData(got.Data, want.Data) {
		t.Fatalf("got %v want %v", got.Data, want.Data)
	}
}

// TestHostConformance runs the conformance suite on the backend with the
// host device: every generated kernel, compiled with g++, against the
// CPU backend.
//
// Every kernel is its own g++ run, so the full tables (every dtype) take
// many minutes on a fresh 2-core machine whose kernel cache is empty. The
// suite's short tables (ten dtypes that stand for all) run by default, as
// part of make test; TENSORSH_HOST_FULL=1 (make test-cuda-host) runs the
// full ones; go test -short skips the test.
func TestHostConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles hundreds of kernels with g++ (make test runs it)")
	}
	b, d := newHostBackend(t)
	full := os.Getenv("TENSORSH_HOST_FULL") == "1"
	conformance.RunOptions(t, b, conformance.Options{Short: !full})
	t.Logf("%d kernel sources compiled (full tables: %v)", d.compiles, full)
}
