package format_test

import (
	"fmt"

	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/internal/format"
)

func ExampleValues() {
	// i16([1, 2, 3]) + 1.5 under JAX: a weak float32.
	t := &backend.Tensor{DType: dtypes.F32, Shape: []int{3}, Data: []float32{2.5, 3.5, 4.5}}
	fmt.Println(format.Values(t, format.Options{}))
	fmt.Println(format.TypeLine(dtypes.Weak(dtypes.F32), t.Shape, "cpu", format.Options{}))

	// float16 keeps its own shortest digits.
	h := &backend.Tensor{DType: dtypes.F16, Shape: []int{2, 2}, Data: []uint16{
		dtypes.F16FromFloat64(0.1), dtypes.F16FromFloat64(1),
		dtypes.F16FromFloat64(-2.25), dtypes.F16FromFloat64(65),
	}}
	fmt.Println(format.Values(h, format.Options{}))
	// Output:
	// [2.5 3.5 4.5]
	// f32?[3] cpu
	// [[ 0.1   1.  ]
	//  [-2.25 65.  ]]
}

func ExampleJSON() {
	t := &backend.Tensor{DType: dtypes.F32, Shape: []int{3}, Data: []float32{2.5, 3.5, 4.5}}
	b, err := format.JSON(t, dtypes.Weak(dtypes.F32))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
	fmt.Println(string(format.DTypeJSON(dtypes.Strong(dtypes.I16))))
	fmt.Println(string(format.ErrorJSON("numpy: Python int 200 is out of bounds for int8", "1:11")))
	// Output:
	// {"dtype":"float32","weak":true,"shape":[3],"values":[2.5,3.5,4.5]}
	// {"kind":"dtype","dtype":"int16","weak":false}
	// {"error":"numpy: Python int 200 is out of bounds for int8","pos":"1:11"}
}

func ExampleScalar() {
	for _, t := range []*backend.Tensor{
		{DType: dtypes.F64, Data: []float64{1}},
		{DType: dtypes.F32, Data: []float32{0.1}},
		{DType: dtypes.C128, Data: []complex128{1 + 2i}},
		{DType: dtypes.Bool, Data: []bool{true}},
		{DType: dtypes.U64, Data: []uint64{18446744073709551615}},
	} {
		fmt.Println(format.Scalar(t))
	}
	// Output:
	// 1.0
	// 0.1
	// (1+2j)
	// true
	// 18446744073709551615
}
