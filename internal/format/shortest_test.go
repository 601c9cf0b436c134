package format

import (
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/tensorsh/tensorsh/dtypes"
)

// TestShortestOracle checks shortest on every value of the 8- and 16-bit
// float formats (and sampled tf32 values) against an oracle that finds the
// rounding interval from the neighbouring bit patterns: the result must
// read back as the value (ends included only for an even significand), no
// decimal with one digit fewer may, and no other decimal with as many
// digits may be closer.
func TestShortestOracle(t *testing.T) {
	type format struct {
		d      dtypes.DType
		n      int // number of positive bit patterns to try
		decode func(b uint32) float64
	}
	formats := []format{
		{dtypes.F8E4M3, 0x7f, func(b uint32) float64 { return dtypes.F8E4M3ToFloat64(uint8(b)) }},
		{dtypes.F8E5M2, 0x7c, func(b uint32) float64 { return dtypes.F8E5M2ToFloat64(uint8(b)) }},
		{dtypes.F16, 0x7c00, func(b uint32) float64 { return dtypes.F16ToFloat64(uint16(b)) }},
		{dtypes.BF16, 0x7f80, func(b uint32) float64 { return dtypes.BF16ToFloat64(uint16(b)) }},
		// tf32 bits: sign, 8 exponent bits, 10 mantissa bits.
		{dtypes.TF32, 0x3fc00, func(b uint32) float64 { return float64(math.Float32frombits(b << 13)) }},
	}
	for _, f := range formats {
		ff := floatFormatOf(f.d)
		// Every f8 value and samples of the others (numpy_f16.txt.gz
		// covers all of float16).
		step := map[dtypes.DType]int{dtypes.F16: 13, dtypes.BF16: 7, dtypes.TF32: 101}[f.d]
		step = max(step, 1)
		for b := 1; b < f.n; b += step {
			v := f.decode(uint32(b))
			prev := f.decode(uint32(b - 1))
			next := f.decode(uint32(b + 1))
			if math.IsNaN(next) || math.IsInf(next, 0) {
				next = v + (v - prev)
			}
			rv := rat(v)
			lo := new(big.Rat).Add(rat(prev), rv)
			lo.Quo(lo, big.NewRat(2, 1))
			hi := new(big.Rat).Add(rat(next), rv)
			hi.Quo(hi, big.NewRat(2, 1))
			closed := b%2 == 0
			in := func(c *big.Rat) bool {
				if closed {
					return c.Cmp(lo) >= 0 && c.Cmp(hi) <= 0
				}
				return c.Cmp(lo) > 0 && c.Cmp(hi) < 0
			}
			d := shortest(v, ff)
			c := decimalRat(d)
			if !in(c) {
				t.Errorf("%v %#x = %v: %v does not read back", f.d, b, v, d)
				continue
			}
			n := len(d.digits)
			e := int(math.Floor(math.Log10(v)))
			if rat(math.Pow(10, float64(e))).Cmp(rv) > 0 {
				e--
			}
			if n > 1 {
				lo1, hi1 := around(rv, e-n+2)
				if in(lo1) || in(hi1) {
					t.Errorf("%v %#x = %v: %v is not the shortest", f.d, b, v, d)
				}
			}
			lo2, hi2 := around(rv, e-n+1)
			dist := new(big.Rat).Sub(c, rv)
			dist.Abs(dist)
			for _, o := range []*big.Rat{lo2, hi2} {
				od := new(big.Rat).Sub(o, rv)
				if in(o) && od.Abs(od).Cmp(dist) < 0 {
					t.Errorf("%v %#x = %v: %v is not the closest", f.d, b, v, d)
				}
			}
		}
	}
}

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func decimalRat(d decimal) *big.Rat {
	r, _ := new(big.Rat).SetString(d.digits[:1] + "." + d.digits[1:] + "e" + strconv.Itoa(d.exp))
	return r
}

// around returns the multiples of 10^q just below (or at) and above v.
func around(v *big.Rat, q int) (lo, hi *big.Rat) {
	unit, _ := new(big.Rat).SetString("1e" + strconv.Itoa(q))
	x := new(big.Rat).Quo(v, unit)
	fl := new(big.Int).Quo(x.Num(), x.Denom())
	lo = new(big.Rat).Mul(new(big.Rat).SetInt(fl), unit)
	hi = new(big.Rat).Add(lo, unit)
	return lo, hi
}
