// Package dtypes defines the element types of tensorsh: the DType enum, its
// names and aliases, the weak/strong Type pair, and exact scalar conversions.
//
// It is the leaf of the project: it imports nothing of ours.
//
// A DType is a storage format (int8, bfloat16, …). A Type is a DType plus a
// weak flag, printed anvil-style with a trailing '?': "f32?" is a weak
// (ambiguous) float32, "f32" a known (strong) one.
package dtypes

import (
	"fmt"
	"strings"
)

// A DType is an element type.
type DType uint8

// The element types, in the order used by tables and listings.
const (
	Invalid DType = iota
	Bool
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F16
	BF16
	F32
	TF32
	F64
	C64
	C128
	F8E4M3
	F8E5M2
	Index
	Address
	C32 // complex32: a pair of float16 (PyTorch's ComplexHalf)

	NumDTypes // the number of DType values, Invalid included
)

// All lists every valid DType in table order.
var All = []DType{Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, TF32, F64, C32, C64, C128, F8E4M3, F8E5M2, Index, Address}

// A Kind is the category of a DType.
type Kind uint8

// The kinds, in the order bool < uint < int < float < complex.
const (
	KindInvalid Kind = iota
	KindBool
	KindUint
	KindInt
	KindFloat
	KindComplex
)

var kindNames = [...]string{"invalid", "bool", "unsigned int", "signed int", "float", "complex"}

func (k Kind) String() string { return kindNames[k] }

type info struct {
	short, full string
	kind        Kind
	bits        int // storage width in bits
	mant, exp   int // explicit mantissa bits and exponent bits of float formats (complex: of each part)
	mlir        string
}

var infos = [NumDTypes]info{
	Invalid: {"invalid", "invalid", KindInvalid, 0, 0, 0, "invalid"},
	Bool:    {"bool", "bool", KindBool, 8, 0, 0, "bool"},
	I8:      {"i8", "int8", KindInt, 8, 0, 0, "si8"},
	I16:     {"i16", "int16", KindInt, 16, 0, 0, "si16"},
	I32:     {"i32", "int32", KindInt, 32, 0, 0, "si32"},
	I64:     {"i64", "int64", KindInt, 64, 0, 0, "si64"},
	U8:      {"u8", "uint8", KindUint, 8, 0, 0, "ui8"},
	U16:     {"u16", "uint16", KindUint, 16, 0, 0, "ui16"},
	U32:     {"u32", "uint32", KindUint, 32, 0, 0, "ui32"},
	U64:     {"u64", "uint64", KindUint, 64, 0, 0, "ui64"},
	F16:     {"f16", "float16", KindFloat, 16, 10, 5, "f16"},
	BF16:    {"bf16", "bfloat16", KindFloat, 16, 7, 8, "bf16"},
	F32:     {"f32", "float32", KindFloat, 32, 23, 8, "f32"},
	TF32:    {"tf32", "tensor_float32", KindFloat, 32, 10, 8, "tf32"},
	F64:     {"f64", "float64", KindFloat, 64, 52, 11, "f64"},
	C64:     {"c64", "complex64", KindComplex, 64, 23, 8, "complex<f32>"},
	C128:    {"c128", "complex128", KindComplex, 128, 52, 11, "complex<f64>"},
	F8E4M3:  {"f8e4m3", "float8_e4m3fn", KindFloat, 8, 3, 4, "f8E4M3FN"},
	F8E5M2:  {"f8e5m2", "float8_e5m2", KindFloat, 8, 2, 5, "f8E5M2"},
	Index:   {"index", "index", KindUint, 64, 0, 0, "index"},
	Address: {"address", "address", KindUint, 64, 0, 0, "address"},
	C32:     {"c32", "complex32", KindComplex, 32, 10, 5, "complex<f16>"},
}

// String returns the canonical short name ("i16", "bf16", "f8e4m3").
func (d DType) String() string {
	if d >= NumDTypes {
		return fmt.Sprintf("DType(%d)", uint8(d))
	}
	return infos[d].short
}

// FullName returns the numpy-style name used in JSON ("int16", "bfloat16",
// "float8_e4m3fn", "tensor_float32", "index").
func (d DType) FullName() string {
	if d >= NumDTypes {
		return d.String()
	}
	return infos[d].full
}

// MLIRName returns the name MAX's error messages use ("si32", "ui8", "f16").
func (d DType) MLIRName() string {
	if d >= NumDTypes {
		return d.String()
	}
	return infos[d].mlir
}

// Kind returns the category of d.
func (d DType) Kind() Kind {
	if d >= NumDTypes {
		return KindInvalid
	}
	return infos[d].kind
}

// Bits returns the storage width of d in bits (bool is stored in 8).
func (d DType) Bits() int { return infos[d%NumDTypes].bits }

// MantissaBits returns the number of explicit mantissa bits of a float or
// complex format (of each part for complex), 0 otherwise.
func (d DType) MantissaBits() int { return infos[d%NumDTypes].mant }

// ExponentBits returns the number of exponent bits of a float or complex
// format, 0 otherwise.
func (d DType) ExponentBits() int { return infos[d%NumDTypes].exp }

// IsValid reports whether d is one of the defined element types.
func (d DType) IsValid() bool { return d > Invalid && d < NumDTypes }

// IsBool reports whether d is bool.
func (d DType) IsBool() bool { return d == Bool }

// IsInt reports whether d is a signed or unsigned integer (not bool).
func (d DType) IsInt() bool { k := d.Kind(); return k == KindInt || k == KindUint }

// IsSigned reports whether d is a signed integer.
func (d DType) IsSigned() bool { return d.Kind() == KindInt }

// IsUnsigned reports whether d is an unsigned integer (index and address included).
func (d DType) IsUnsigned() bool { return d.Kind() == KindUint }

// IsFloat reports whether d is a real floating-point format.
func (d DType) IsFloat() bool { return d.Kind() == KindFloat }

// IsComplex reports whether d is a complex format.
func (d DType) IsComplex() bool { return d.Kind() == KindComplex }

// IsInexact reports whether d is a float or complex format.
func (d DType) IsInexact() bool { return d.IsFloat() || d.IsComplex() }

// IsFloat8 reports whether d is one of the 8-bit float formats.
func (d DType) IsFloat8() bool { return d == F8E4M3 || d == F8E5M2 }

// Real returns the real part format of a complex dtype, d itself otherwise.
func (d DType) Real() DType {
	switch d {
	case C32:
		return F16
	case C64:
		return F32
	case C128:
		return F64
	}
	return d
}

// IntRange returns the inclusive range of an integer or bool dtype as
// (min, max) with min given as int64 and max as uint64.
func (d DType) IntRange() (min int64, max uint64) {
	switch d {
	case Bool:
		return 0, 1
	case I8:
		return -1 << 7, 1<<7 - 1
	case I16:
		return -1 << 15, 1<<15 - 1
	case I32:
		return -1 << 31, 1<<31 - 1
	case I64:
		return -1 << 63, 1<<63 - 1
	case U8:
		return 0, 1<<8 - 1
	case U16:
		return 0, 1<<16 - 1
	case U32:
		return 0, 1<<32 - 1
	case U64, Index, Address:
		return 0, 1<<64 - 1
	}
	return 0, 0
}

// names maps every accepted spelling to its DType.
var names = map[string]DType{}

// rejected maps ambiguous spellings to the reason they are refused.
var rejected = map[string]string{
	"float":   "\"float\" means float64 in NumPy and Python but float32 in PyTorch, JAX and Triton; write f32 or f64",
	"int":     "\"int\" means int64 in NumPy, int32 in JAX (x64 off) and C, and an arbitrary-precision integer in Python; write i32 or i64",
	"f8":      "\"f8\" is float64 in NumPy's type codes but an 8-bit float elsewhere; write f64, f8e4m3 or f8e5m2",
	"uint":    "\"uint\" has no fixed width across libraries; write u32 or u64",
	"complex": "\"complex\" means complex128 in NumPy and Python but complex64 in PyTorch; write c64 or c128",
	"c8":      "\"c8\" is complex128 in JAX's table notation but could be read as 8 bytes (complex64); write c64 or c128",
	"f2":      "\"f2\" is NumPy's type code for float16; write f16",
	"f4":      "\"f4\" is NumPy's type code for float32; write f32",
	"i4":      "\"i4\" is a NumPy byte-count code (int32); write i32",
	"long":    "\"long\" is int64 in PyTorch but 32 bits on Windows C; write i64 or i32",
	"short":   "\"short\" is ambiguous; write i16",
	"byte":    "\"byte\" is uint8 in PyTorch but int8 in Java and NumPy's 'b'; write u8 or i8",
	"fp8":     "\"fp8\" names two formats; write f8e4m3 or f8e5m2",
	"float8":  "\"float8\" names two formats; write f8e4m3 or f8e5m2",
}

func init() {
	for _, d := range All {
		names[d.String()] = d
		names[d.FullName()] = d
	}
	aliases := map[string]DType{
		"pred": Bool, "i1": Bool, "b1": Bool, "int1": Bool,
		"ui8": U8, "ui16": U16, "ui32": U32, "ui64": U64,
		"half": F16, "fp16": F16,
		"fp32":   F32,
		"double": F64, "fp64": F64,
		"fp8e4nv": F8E4M3, "fp8e5": F8E5M2,
		"tensor_float_32": TF32,
		"float8_e4m3":     F8E4M3,
		"chalf":           C32, // torch.chalf
	}
	for n, d := range aliases {
		names[n] = d
	}
}

// Parse returns the DType named s (a short name, full name or alias).
// Ambiguous names such as "float", "int" and "f8" are refused with an
// explanation.
func Parse(s string) (DType, error) {
	if d, ok := names[s]; ok {
		return d, nil
	}
	if why, ok := rejected[s]; ok {
		return Invalid, fmt.Errorf("ambiguous dtype name: %s", why)
	}
	if d, ok := names[strings.ToLower(s)]; ok {
		return Invalid, fmt.Errorf("unknown dtype %q (did you mean %s?)", s, d)
	}
	return Invalid, fmt.Errorf("unknown dtype %q", s)
}

// IsName reports whether s is an accepted dtype spelling.
func IsName(s string) bool {
	_, ok := names[s]
	return ok
}

// Names returns every accepted dtype spelling, for completion.
func Names() []string {
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	return out
}

// A Type is a DType with a weak flag. A weak (ambiguous) type is printed
// with a trailing '?': it marks a value whose dtype came from a literal
// default and may still give way to a known operand.
type Type struct {
	DType DType
	Weak  bool
}

// Strong returns the known (non-weak) Type of d.
func Strong(d DType) Type { return Type{DType: d} }

// Weak returns the weak Type of d.
func Weak(d DType) Type { return Type{DType: d, Weak: true} }

// String returns the short form, e.g. "f32?" or "i16".
func (t Type) String() string {
	if t.Weak {
		return t.DType.String() + "?"
	}
	return t.DType.String()
}

// ParseType parses a dtype name with an optional trailing '?' ("i32?").
func ParseType(s string) (Type, error) {
	weak := strings.HasSuffix(s, "?")
	d, err := Parse(strings.TrimSuffix(s, "?"))
	if err != nil {
		return Type{}, err
	}
	return Type{DType: d, Weak: weak}, nil
}
