//go:build !amd64 || purego

package cpu

// Without the assembly loops there are no AVX-512 products to choose.
var cmulAVX512 = false

const cmulHasAVX512 = false

func cmulC64(d, a, b []complex64) { cmulGo(d, a, b) }

func cmulC128(d, a, b []complex128) { cmulGo128(d, a, b) }

func cdivC64(d, a, b []complex64) { cdivGo(d, a, b) }

func cdivC128(d, a, b []complex128) { cdivGo128(d, a, b) }

func crecipC64(d, a []complex64) { crecipGo(d, a) }

func crecipC128(d, a []complex128) { crecipGo128(d, a) }
