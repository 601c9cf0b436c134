package backend

import (
	"errors"
	"fmt"
	"math"

	"github.com/tensorsh/tensorsh/dtypes"
)

// A CType is the type a dtype is computed in. Storage and compute types
// are the same except for the narrow floats: f16, bf16, f8e4m3 and f8e5m2
// are stored as bits and computed in float32 (holding values exactly
// representable in the narrow format between operations); tf32 is stored
// and computed as float32; complex32 is computed as complex64.
type CType uint8

// The compute types.
const (
	CBool CType = iota
	CI8
	CI16
	CI32
	CI64
	CU8
	CU16
	CU32
	CU64
	CF32
	CF64
	CC64
	CC128
)

// ComputeOf returns the compute type of d, which must be valid.
func ComputeOf(d dtypes.DType) CType {
	switch d {
	case dtypes.Bool:
		return CBool
	case dtypes.I8:
		return CI8
	case dtypes.I16:
		return CI16
	case dtypes.I32:
		return CI32
	case dtypes.I64:
		return CI64
	case dtypes.U8:
		return CU8
	case dtypes.U16:
		return CU16
	case dtypes.U32:
		return CU32
	case dtypes.U64, dtypes.Index, dtypes.Address:
		return CU64
	case dtypes.F16, dtypes.BF16, dtypes.F32, dtypes.TF32, dtypes.F8E4M3, dtypes.F8E5M2:
		return CF32
	case dtypes.F64:
		return CF64
	case dtypes.C64, dtypes.C32:
		return CC64
	case dtypes.C128:
		return CC128
	}
	panic(fmt.Sprintf("backend: no compute type for %v", d))
}

// IsInt reports whether c is a signed or unsigned integer type.
func (c CType) IsInt() bool { return c >= CI8 && c <= CU64 }

// IsSigned reports whether c is a signed integer type.
func (c CType) IsSigned() bool { return c >= CI8 && c <= CI64 }

// IsFloat reports whether c is float32 or float64.
func (c CType) IsFloat() bool { return c == CF32 || c == CF64 }

// IsComplex reports whether c is complex64 or complex128.
func (c CType) IsComplex() bool { return c == CC64 || c == CC128 }

// Size returns the size of one value of c in bytes.
func (c CType) Size() int {
	switch c {
	case CBool, CI8, CU8:
		return 1
	case CI16, CU16:
		return 2
	case CI32, CU32, CF32:
		return 4
	case CC128:
		return 16
	}
	return 8
}

// ElemSize returns the storage size of one element of d in bytes.
func ElemSize(d dtypes.DType) int {
	if d == dtypes.Bool {
		return 1
	}
	return d.Bits() / 8
}

// Narrow reports whether d is computed in float32 (complex32: complex64)
// but holds fewer bits, so that results must be rounded back to d after
// every operation.
func Narrow(d dtypes.DType) bool {
	switch d {
	case dtypes.F16, dtypes.BF16, dtypes.TF32, dtypes.F8E4M3, dtypes.F8E5M2, dtypes.C32:
		return true
	}
	return false
}

// RoundingFor returns the narrow dtype the results of o computed for d
// must be rounded to, or Invalid when they need no rounding: d is not
// narrow, or o is exact (casts round themselves; selection, negation and
// the like give values that are already representable).
func RoundingFor(o Op, d dtypes.DType) dtypes.DType {
	if !Narrow(d) {
		return dtypes.Invalid
	}
	switch o {
	case OpCast, OpWhere, OpNeg, OpAbs, OpRelu,
		OpFloor, OpCeil, OpRound, OpRoundEven, OpTrunc,
		OpMax, OpMin:
		return dtypes.Invalid
	}
	return d
}

// Unsupported returns the error for an operation a dtype does not have,
// worded like NumPy where NumPy has a message.
func Unsupported(o Op, d dtypes.DType) error {
	if d == dtypes.Bool {
		switch o {
		case OpNeg:
			return fmt.Errorf("the boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead")
		case OpSub:
			return fmt.Errorf("boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead")
		}
	}
	return fmt.Errorf("%v is not supported for %v", o, d)
}

// ErrOutOfMemory begins the errors of results too large for memory.
var ErrOutOfMemory = errors.New("out of memory")

// ShapeSize returns the number of elements of shape, or an error for a
// negative dimension or a count that overflows (wrapping ErrOutOfMemory).
func ShapeSize(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", shape)
		}
		if d != 0 && n > math.MaxInt/d {
			return 0, fmt.Errorf("%w: shape %v has too many elements", ErrOutOfMemory, shape)
		}
		n *= d
	}
	return n, nil
}
