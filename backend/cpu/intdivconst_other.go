//go:build !amd64 || purego

package cpu

// floorDivConst returns nil: the general loops divide.
func floorDivConst[T integer](c T, ref func(d, a, b []T) error) func(d, a, b []T) error {
	return nil
}
