//go:build !unix

package textfile

import "os"

func open(name string) (*os.File, error) { return os.Open(name) }
