package main

import (
	"github.com/tensorsh/tensorsh/backend"
	"github.com/tensorsh/tensorsh/backend/cuda"
	"github.com/tensorsh/tensorsh/eval"
)

// registerBackends makes the backends other than cpu available to
// :backend. CUDA is opened on first use; on a machine without a driver
// that use is a clear error naming what is missing.
func registerBackends(s *eval.Session) {
	s.RegisterBackend("cuda", func() (backend.Backend, error) {
		b, err := cuda.New()
		if err != nil {
			return nil, err
		}
		return b, nil
	})
}
