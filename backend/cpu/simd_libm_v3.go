//go:build amd64.v3

package cpu

// goFusesMulAdd reports whether the Go compiler fuses x*y + z into one
// FMA in Go code, as it does for GOAMD64=v3 and above.
const goFusesMulAdd = true
