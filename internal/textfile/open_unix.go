//go:build unix

package textfile

import (
	"os"
	"syscall"
)

// open opens name for reading without blocking: a FIFO that replaced the
// file after Stat opens at once (and is then refused) instead of waiting
// for a writer.
func open(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
