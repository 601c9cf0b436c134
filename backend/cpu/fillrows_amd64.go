//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func fillRowsAVX2(d, s unsafe.Pointer, rows, rowBytes, step, size int)

// fillRows sets rows rows of rowLen elements of d, one after another, each
// to one value: row r to src[start + r*step] (see gatherRows).
func fillRows[T any](d, src []T, start, step, rows, rowLen int) {
	if rows == 0 {
		return
	}
	size := int(unsafe.Sizeof(d[0]))
	if !haveAVX2 || size > 8 || rowLen*size < 32 {
		fillRowsGo(d, src, start, step, rows, rowLen)
		return
	}
	d = d[:rows*rowLen]
	_ = src[start+(rows-1)*step] // the last row's value is src's
	_ = src[start]
	fillRowsAVX2(unsafe.Pointer(&d[0]), unsafe.Pointer(&src[start]), rows, rowLen*size, step*size, size)
}
