package dtypes

import (
	"strings"
	"testing"
)

func TestNamesRoundTrip(t *testing.T) {
	if len(All) != int(NumDTypes)-1 {
		t.Fatalf("All has %d dtypes, want %d", len(All), NumDTypes-1)
	}
	seenShort, seenFull := map[string]bool{}, map[string]bool{}
	for _, d := range All {
		if !d.IsValid() {
			t.Errorf("%v is not valid", d)
		}
		for _, name := range []string{d.String(), d.FullName()} {
			got, err := Parse(name)
			if err != nil || got != d {
				t.Errorf("Parse(%q) = %v, %v; want %v", name, got, err, d)
			}
			if !IsName(name) {
				t.Errorf("IsName(%q) = false", name)
			}
		}
		if seenShort[d.String()] || seenFull[d.FullName()] {
			t.Errorf("%v: duplicate name", d)
		}
		seenShort[d.String()], seenFull[d.FullName()] = true, true
		for _, weak := range []bool{false, true} {
			ty := Type{DType: d, Weak: weak}
			got, err := ParseType(ty.String())
			if err != nil || got != ty {
				t.Errorf("ParseType(%q) = %v, %v; want %v", ty.String(), got, err, ty)
			}
		}
	}
	if Invalid.IsValid() || NumDTypes.IsValid() {
		t.Error("Invalid or NumDTypes reported valid")
	}
	if got := DType(200).String(); got != "DType(200)" {
		t.Errorf("DType(200).String() = %q", got)
	}
	if got := DType(200).FullName(); got != "DType(200)" {
		t.Errorf("DType(200).FullName() = %q", got)
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		d           DType
		short, full string
		mlir        string
	}{
		{Bool, "bool", "bool", "bool"},
		{I8, "i8", "int8", "si8"},
		{I64, "i64", "int64", "si64"},
		{U16, "u16", "uint16", "ui16"},
		{F16, "f16", "float16", "f16"},
		{BF16, "bf16", "bfloat16", "bf16"},
		{TF32, "tf32", "tensor_float32", "tf32"},
		{F64, "f64", "float64", "f64"},
		{C64, "c64", "complex64", "complex<f32>"},
		{C128, "c128", "complex128", "complex<f64>"},
		{F8E4M3, "f8e4m3", "float8_e4m3fn", "f8E4M3FN"},
		{F8E5M2, "f8e5m2", "float8_e5m2", "f8E5M2"},
		{Index, "index", "index", "index"},
		{Address, "address", "address", "address"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.short {
			t.Errorf("String() = %q, want %q", got, tt.short)
		}
		if got := tt.d.FullName(); got != tt.full {
			t.Errorf("%v.FullName() = %q, want %q", tt.d, got, tt.full)
		}
		if got := tt.d.MLIRName(); got != tt.mlir {
			t.Errorf("%v.MLIRName() = %q, want %q", tt.d, got, tt.mlir)
		}
	}
}

func TestAliases(t *testing.T) {
	tests := map[string]DType{
		"pred": Bool, "i1": Bool, "b1": Bool, "int1": Bool,
		"ui8": U8, "ui16": U16, "ui32": U32, "ui64": U64,
		"half": F16, "fp16": F16, "fp32": F32, "double": F64, "fp64": F64,
		"fp8e4nv": F8E4M3, "fp8e5": F8E5M2, "float8_e4m3": F8E4M3,
		"tensor_float_32": TF32, "tensor_float32": TF32,
		"float8_e4m3fn": F8E4M3, "bfloat16": BF16, "complex64": C64,
	}
	for name, want := range tests {
		got, err := Parse(name)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, n := range Names() {
		if _, err := Parse(n); err != nil {
			t.Errorf("Names() lists %q but Parse refuses it: %v", n, err)
		}
	}
}

func TestParseRejected(t *testing.T) {
	tests := []struct {
		name string
		want []string // substrings the error must contain
	}{
		{"float", []string{"ambiguous", "float64 in NumPy", "float32 in PyTorch", "f32 or f64"}},
		{"int", []string{"ambiguous", "int64 in NumPy", "int32 in JAX", "i32 or i64"}},
		{"f8", []string{"ambiguous", "float64 in NumPy", "8-bit float", "f8e4m3 or f8e5m2"}},
		{"complex", []string{"ambiguous", "c64 or c128"}},
		{"uint", []string{"ambiguous", "u32 or u64"}},
		{"fp8", []string{"two formats"}},
		{"float8", []string{"two formats"}},
		{"f4", []string{"f32"}},
		{"i4", []string{"i32"}},
		{"byte", []string{"u8 or i8"}},
		{"float?", []string{"ambiguous"}},
		{"Float32", []string{`unknown dtype "Float32"`, "did you mean f32?"}},
		{"BF16", []string{"did you mean bf16?"}},
		{"f128", []string{`unknown dtype "f128"`}},
		{"", []string{"unknown dtype"}},
		{"?", []string{"unknown dtype"}},
		{"i32??", []string{"unknown dtype"}},
		{"invalid", []string{"unknown dtype"}},
	}
	for _, tt := range tests {
		_, err := ParseType(tt.name)
		if err == nil {
			t.Errorf("ParseType(%q) succeeded, want an error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseType(%q) error %q does not contain %q", tt.name, err, w)
			}
		}
		if !strings.HasSuffix(tt.name, "?") {
			if d, err := Parse(tt.name); err == nil || d != Invalid {
				t.Errorf("Parse(%q) = %v, %v; want Invalid and an error", tt.name, d, err)
			}
			if IsName(tt.name) {
				t.Errorf("IsName(%q) = true", tt.name)
			}
		}
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		in   string
		want Type
		str  string
	}{
		{"i32?", Weak(I32), "i32?"},
		{"f32", Strong(F32), "f32"},
		{"float32?", Weak(F32), "f32?"},
		{"half?", Weak(F16), "f16?"},
		{"bool", Strong(Bool), "bool"},
		{"c128?", Weak(C128), "c128?"},
		// torch.complex32 and its alias torch.chalf (torch/_C/__init__.pyi).
		{"complex32", Strong(C32), "c32"},
		{"chalf?", Weak(C32), "c32?"},
	}
	for _, tt := range tests {
		got, err := ParseType(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseType(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if got.String() != tt.str {
			t.Errorf("ParseType(%q).String() = %q, want %q", tt.in, got.String(), tt.str)
		}
	}
}

func TestProperties(t *testing.T) {
	tests := []struct {
		d          DType
		kind       Kind
		bits       int
		mant, exp  int
		intLike    bool
		signed     bool
		float      bool
		complexity bool
	}{
		{Bool, KindBool, 8, 0, 0, false, false, false, false},
		{I8, KindInt, 8, 0, 0, true, true, false, false},
		{I16, KindInt, 16, 0, 0, true, true, false, false},
		{I32, KindInt, 32, 0, 0, true, true, false, false},
		{I64, KindInt, 64, 0, 0, true, true, false, false},
		{U8, KindUint, 8, 0, 0, true, false, false, false},
		{U16, KindUint, 16, 0, 0, true, false, false, false},
		{U32, KindUint, 32, 0, 0, true, false, false, false},
		{U64, KindUint, 64, 0, 0, true, false, false, false},
		{F16, KindFloat, 16, 10, 5, false, false, true, false},
		{BF16, KindFloat, 16, 7, 8, false, false, true, false},
		{F32, KindFloat, 32, 23, 8, false, false, true, false},
		{TF32, KindFloat, 32, 10, 8, false, false, true, false},
		{F64, KindFloat, 64, 52, 11, false, false, true, false},
		{C32, KindComplex, 32, 10, 5, false, false, false, true},
		{C64, KindComplex, 64, 23, 8, false, false, false, true},
		{C128, KindComplex, 128, 52, 11, false, false, false, true},
		{F8E4M3, KindFloat, 8, 3, 4, false, false, true, false},
		{F8E5M2, KindFloat, 8, 2, 5, false, false, true, false},
		{Index, KindUint, 64, 0, 0, true, false, false, false},
		{Address, KindUint, 64, 0, 0, true, false, false, false},
	}
	if len(tests) != len(All) {
		t.Fatalf("table covers %d dtypes, All has %d", len(tests), len(All))
	}
	for _, tt := range tests {
		d := tt.d
		if d.Kind() != tt.kind || d.Bits() != tt.bits || d.MantissaBits() != tt.mant || d.ExponentBits() != tt.exp {
			t.Errorf("%v: kind %v bits %d mant %d exp %d; want %v %d %d %d",
				d, d.Kind(), d.Bits(), d.MantissaBits(), d.ExponentBits(), tt.kind, tt.bits, tt.mant, tt.exp)
		}
		if d.IsInt() != tt.intLike || d.IsSigned() != tt.signed || d.IsFloat() != tt.float || d.IsComplex() != tt.complexity {
			t.Errorf("%v: IsInt %v IsSigned %v IsFloat %v IsComplex %v", d, d.IsInt(), d.IsSigned(), d.IsFloat(), d.IsComplex())
		}
		if d.IsInexact() != (tt.float || tt.complexity) || d.IsBool() != (d == Bool) {
			t.Errorf("%v: IsInexact %v IsBool %v", d, d.IsInexact(), d.IsBool())
		}
		if d.IsUnsigned() != (tt.kind == KindUint) || d.IsFloat8() != (tt.float && tt.bits == 8) {
			t.Errorf("%v: IsUnsigned %v IsFloat8 %v", d, d.IsUnsigned(), d.IsFloat8())
		}
		// A float format's bits are sign + exponent + mantissa (TF32 is
		// stored in 32 bits but has 19 significant ones).
		if tt.float && d != TF32 && 1+tt.exp+tt.mant != tt.bits {
			t.Errorf("%v: 1+%d+%d != %d bits", d, tt.exp, tt.mant, tt.bits)
		}
	}
	if C32.Real() != F16 || C64.Real() != F32 || C128.Real() != F64 || I8.Real() != I8 {
		t.Error("Real() of complex dtypes is wrong")
	}
	if DType(250).Kind() != KindInvalid {
		t.Error("out-of-range DType has a kind")
	}
	kinds := map[Kind]string{KindBool: "bool", KindUint: "unsigned int", KindInt: "signed int", KindFloat: "float", KindComplex: "complex"}
	for k, s := range kinds {
		if k.String() != s {
			t.Errorf("Kind %d String() = %q, want %q", k, k.String(), s)
		}
	}
}

func TestIntRange(t *testing.T) {
	tests := []struct {
		d   DType
		min int64
		max uint64
	}{
		{Bool, 0, 1},
		{I8, -128, 127},
		{I16, -32768, 32767},
		{I32, -1 << 31, 1<<31 - 1},
		{I64, -1 << 63, 1<<63 - 1},
		{U8, 0, 255},
		{U16, 0, 65535},
		{U32, 0, 1<<32 - 1},
		{U64, 0, 1<<64 - 1},
		{Index, 0, 1<<64 - 1},
		{F32, 0, 0},
	}
	for _, tt := range tests {
		if mn, mx := tt.d.IntRange(); mn != tt.min || mx != tt.max {
			t.Errorf("%v.IntRange() = %d, %d; want %d, %d", tt.d, mn, mx, tt.min, tt.max)
		}
	}
}
