package main

import (
	"github.com/tensorsh/tensorsh/eval"
	"github.com/tensorsh/tensorsh/jupyter"
)

// kernelMain runs "tensorsh kernel …" (args are what follows "kernel"):
//
//	tensorsh kernel --connection-file F [--policy P]    serve Jupyter
//	tensorsh kernel install [--user|--sys-prefix|--prefix P] [--name N]
//	tensorsh kernel uninstall [--user|--sys-prefix|--prefix P] [--name N]
//
// The kernelspec runs this executable by its absolute path, with
// interrupt_mode "message"; SIGINT interrupts the running cell too.
func kernelMain(args []string) int {
	return jupyter.Main(args, jupyter.Config{NewEngine: newKernelEngine})
}

// newKernelEngine returns a tensorsh session for a kernel, with the named
// policy (default jax). "%backend cuda" opens the CUDA backend on first
// use, or says why it cannot.
func newKernelEngine(policy string) (jupyter.Engine, error) {
	if policy == "" {
		policy = "jax"
	}
	s, err := eval.New(policy)
	if err != nil {
		return nil, err
	}
	registerBackends(s)
	return jupyter.NewSessionEngine(s), nil
}
