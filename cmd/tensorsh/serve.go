package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/tensorsh/tensorsh/web"
)

// serveMain runs "tensorsh serve [--addr HOST:PORT] [--wasm FILE]": the
// browser playground, served from the binary. It listens on the loopback
// interface unless told otherwise; the page runs everything in the
// browser, so the server only hands out static files.
func serveMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tensorsh serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on (host:port; a host other than loopback exposes the page to the network)")
	wasm := fs.String("wasm", "", "serve this tensorsh.wasm `file` instead of the embedded one")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tensorsh serve [--addr 127.0.0.1:8080] [--wasm FILE]\n\n"+
			"Serves the playground: tensorsh compiled to WebAssembly, running in the page.\n"+
			"Share links (#policy=NAME&code=…) run their code when opened.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tensorsh serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	h, err := web.Handler(web.Options{Wasm: *wasm})
	if err != nil {
		fmt.Fprintf(stderr, "tensorsh serve: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "tensorsh serve: %v\n", err)
		return 1
	}
	if host, _, err := net.SplitHostPort(*addr); err == nil {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			fmt.Fprintf(stderr, "tensorsh serve: listening on %s: other machines can open the page\n", host)
		}
	}
	fmt.Fprintf(stdout, "tensorsh playground on http://%s/ (Ctrl-C stops)\n", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "tensorsh serve: %v\n", err)
		return 1
	}
	return 0
}
