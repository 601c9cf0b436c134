// Package textfile reads the source files a user names (:load, :policy
// load) without letting the name do harm: only regular files, up to a size
// limit, read in chunks that a cancelled context stops, and only text.
//
// A FIFO, a device such as /dev/zero, a file larger than the limit, or a
// file holding NUL bytes or invalid UTF-8 (/proc/self/environ, a binary)
// is an error that names the file but never quotes its contents.
package textfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// MaxSize is the default size limit of Read: 16 MiB, far beyond any
// script or policy a person writes.
const MaxSize = 16 << 20

// chunk is how much Read reads between checks of its context.
const chunk = 1 << 20

// ErrNotText is wrapped by the error Read returns for a file that is not
// text.
var ErrNotText = errors.New("not a text file")

// Read returns the contents of the regular file name, which must hold at
// most limit bytes (MaxSize when limit ≤ 0) of UTF-8 text without NUL
// bytes. It stops with ctx's error when ctx is cancelled.
func Read(ctx context.Context, name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxSize
	}
	fi, err := os.Stat(name)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			pe.Op = "open" // what the user asked for, not how it is done
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", name, kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is too large: %d bytes (the limit is %d)", name, fi.Size(), limit)
	}
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced since Stat: check what was opened.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", name, kind(fi.Mode()))
	}
	var buf bytes.Buffer
	r := io.LimitReader(f, limit+1) // files in /proc report size 0: count
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, err := io.CopyN(&buf, r, chunk); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%s is too large: more than %d bytes", name, limit)
	}
	data := buf.Bytes()
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, fmt.Errorf("%s: %w (it holds NUL bytes or invalid UTF-8)", name, ErrNotText)
	}
	return data, nil
}

// kind describes a file mode that is not a regular file.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}
