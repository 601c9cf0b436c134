package format

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// The goldens in testdata come from numpy (see testdata/gen_numpy.py).

func readGzip(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNumpyFloat16 checks the str of every finite float16, and of its
// negation, against numpy's.
func TestNumpyFloat16(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(string(readGzip(t, "numpy_f16.txt.gz")), "\n"), "\n")
	if len(lines) != 0x7c00 {
		t.Fatalf("numpy_f16.txt.gz has %d lines, want %d", len(lines), 0x7c00)
	}
	for b, want := range lines {
		for _, sign := range []uint16{0, 0x8000} {
			tt := &backend.Tensor{DType: dtypes.F16, Shape: []int{}, Data: []uint16{uint16(b) | sign}}
			w := want
			if sign != 0 {
				w = "-" + want
			}
			if got := Scalar(tt); got != w {
				t.Errorf("float16 %#04x: got %s, want %s", uint16(b)|sign, got, w)
			}
		}
	}
}

// TestNumpyScalars checks the str of sampled float32 and float64 values.
func TestNumpyScalars(t *testing.T) {
	sc := bufio.NewScanner(strings.NewReader(string(readGzip(t, "numpy_scalars.txt.gz"))))
	n := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		bits, err := strconv.ParseUint(fs[1], 16, 64)
		if err != nil || len(fs) != 3 {
			t.Fatalf("bad line %q", sc.Text())
		}
		var tt *backend.Tensor
		switch fs[0] {
		case "float32":
			tt = &backend.Tensor{DType: dtypes.F32, Data: []float32{math.Float32frombits(uint32(bits))}}
		case "float64":
			tt = &backend.Tensor{DType: dtypes.F64, Data: []float64{math.Float64frombits(bits)}}
		default:
			t.Fatalf("bad dtype in %q", sc.Text())
		}
		if got := Scalar(tt); got != fs[2] {
			t.Errorf("%s %s: got %s, want %s", fs[0], fs[1], got, fs[2])
		}
		n++
	}
	if n < 4000 {
		t.Fatalf("only %d scalars", n)
	}
}

// TestNumpyArrays checks Values against numpy's str of random arrays of
// every numpy dtype, shapes up to 4-D, elided ones, and several widths.
func TestNumpyArrays(t *testing.T) {
	var cases []corpusCase
	if err := json.Unmarshal(readGzip(t, "numpy_arrays.json.gz"), &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 300 {
		t.Fatalf("only %d cases", len(cases))
	}
	for i, c := range cases {
		tt, err := c.tensor()
		if err != nil {
			t.Fatal(err)
		}
		if got := Values(tt, Options{Width: c.Width}); got != c.Str {
			t.Errorf("case %d, %s%v width %d:\ngot:\n%s\nwant:\n%s", i, c.DType, c.Shape, c.Width, got, c.Str)
		}
	}
}
