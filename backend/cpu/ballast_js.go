//go:build js || wasip1

package cpu

// setBallast does nothing in the browser (see ballast.go).
func setBallast() {}
