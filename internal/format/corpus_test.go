package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
)

// A corpusCase is one array printed by numpy: its dtype (numpy's name),
// shape, line width, elements (hex bits for floats, "re,im" hex bits for
// complex, decimal for ints) and numpy's str.
type corpusCase struct {
	DType string   `json:"dtype"`
	Shape []int    `json:"shape"`
	Width int      `json:"width"`
	Data  []string `json:"data"`
	Str   string   `json:"str"`
}

func (c corpusCase) tensor() (*backend.Tensor, error) {
	d, err := dtypes.Parse(c.DType)
	if err != nil {
		return nil, err
	}
	n := len(c.Data)
	hex := func(s string) uint64 {
		v, err2 := strconv.ParseUint(s, 16, 64)
		if err2 != nil && err == nil {
			err = err2
		}
		return v
	}
	var data any
	switch d {
	case dtypes.F16:
		s := make([]uint16, n)
		for i, x := range c.Data {
			s[i] = uint16(hex(x))
		}
		data = s
	case dtypes.F32:
		s := make([]float32, n)
		for i, x := range c.Data {
			s[i] = math.Float32frombits(uint32(hex(x)))
		}
		data = s
	case dtypes.F64:
		s := make([]float64, n)
		for i, x := range c.Data {
			s[i] = math.Float64frombits(hex(x))
		}
		data = s
	case dtypes.C64:
		s := make([]complex64, n)
		for i, x := range c.Data {
			re, im, _ := strings.Cut(x, ",")
			s[i] = complex(math.Float32frombits(uint32(hex(re))), math.Float32frombits(uint32(hex(im))))
		}
		data = s
	case dtypes.C128:
		s := make([]complex128, n)
		for i, x := range c.Data {
			re, im, _ := strings.Cut(x, ",")
			s[i] = complex(math.Float64frombits(hex(re)), math.Float64frombits(hex(im)))
		}
		data = s
	default:
		if d.IsSigned() {
			v := make([]int64, n)
			for i, x := range c.Data {
				v[i], err = strconv.ParseInt(x, 10, 64)
			}
			data = convertInts(d, v)
		} else {
			v := make([]uint64, n)
			for i, x := range c.Data {
				v[i], err = strconv.ParseUint(x, 10, 64)
			}
			data = convertUints(d, v)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %v", c.DType, err)
	}
	return &backend.Tensor{DType: d, Shape: c.Shape, Data: data}, nil
}

func convertInts(d dtypes.DType, v []int64) any {
	switch d {
	case dtypes.I8:
		return conv[int8](v)
	case dtypes.I16:
		return conv[int16](v)
	case dtypes.I32:
		return conv[int32](v)
	}
	return v
}

func convertUints(d dtypes.DType, v []uint64) any {
	switch d {
	case dtypes.U8:
		return conv[uint8](v)
	case dtypes.U16:
		return conv[uint16](v)
	case dtypes.U32:
		return conv[uint32](v)
	}
	return v
}

func conv[T, S int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](v []S) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}
