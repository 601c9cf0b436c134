//go:build !amd64 || purego

package cpu

// floorDivConstI32 returns nil: the general loops divide.
func floorDivConstI32(c int32, ref func(d, a, b []int32) error) func(d, a, b []int32) error {
	return nil
}
