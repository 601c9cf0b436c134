//go:build !amd64 || purego

package cpu

func fillRows[T any](d, src []T, start, step, rows, rowLen int) {
	fillRowsGo(d, src, start, step, rows, rowLen)
}
