package jupyter

import (
	"context"
	"io"
	"log"
	"testing"
)

// BenchmarkExecuteRoundTrip measures one execute_request of "1 + 1" on a
// tensorsh session, over real ZMQ on loopback, from sending the request to
// having the execute_reply and the status idle. bench/jupyter_latency.py
// measures the same through jupyter_client, against ipykernel.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	e, err := newSession("")
	if err != nil {
		b.Fatal(err)
	}
	k, err := NewKernel(tcpConn("key"), e, Options{Log: log.New(io.Discard, "", 0)})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.Run(ctx) }()
	defer func() { cancel(); <-done }()
	c := dialClient(b, k.Connection())
	req := executeContent("1 + 1")
	req["store_history"] = false
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, _ := c.request("execute_request", req)
		if r.Header.MsgType != "execute_reply" {
			b.Fatal(r.Header.MsgType)
		}
	}
}
