//go:build !amd64 || purego

package cpu

import "github.com/tensorsh/tensorsh/backend"

func simdFloatKernel(n *backend.Node, ct ctype) kfn { return nil }

func simdWhereKernel(ct ctype) kfn { return nil }

func narrowMinMaxLoop(isMax bool) func(d, a, b []float32) { return nil }

func floatPred32(o backend.Op) func(d []bool, a, b []float32) { return nil }

func floatPred64(o backend.Op) func(d []bool, a, b []float64) { return nil }

func floatUnary32(o backend.Op) func(d, a []float32) { return nil }

func floatUnary64(o backend.Op) func(d, a []float64) { return nil }
