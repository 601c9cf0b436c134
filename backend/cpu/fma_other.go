//go:build !amd64 || purego

package cpu

import "github.com/tensorsh/tensorsh/backend"

func fmaDot4Asm[T float32 | float64](s *[4]T, a []T, lda, k int, v []T) bool { return false }

func fmaDotAsm[T float32 | float64](s *T, a, v []T) bool { return false }

func fmaRowAsm[T float32 | float64](d, b []T, a T) bool { return false }

func fmaLanesAsm[T float32 | float64](s *[backend.DotLanes]T, a, v []T) bool { return false }
