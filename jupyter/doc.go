// Package jupyter is the tensorsh Jupyter kernel: the messaging protocol
// (version 5.3) over ZeroMQ, served for an [Engine] that runs the cells.
//
// # Layers
//
// The package keeps three concerns apart:
//
//   - wire.go and conn.go: the connection file, the multipart wire format
//     (routing identities, "<IDS|MSG>", an HMAC-SHA256 signature over the
//     four JSON frames, then header, parent_header, metadata and content)
//     and signing. Signatures are checked in constant time; a message with
//     a missing, wrong or replayed signature, or one that does not parse,
//     is dropped and logged, never handled. The last 2**16 accepted
//     signatures are remembered, in memory, to refuse replays (as many as
//     jupyter_client's Session.digest_history_size); an older message, or
//     any message after a restart with the same key, can be replayed. An
//     empty key turns signing off, with a warning in the log, as does an
//     ip that binds every interface.
//   - zmtp.go: what a peer may do before any key is checked. The sockets
//     are bound through a transport of the kernel's own (see below).
//   - kernel.go and dispatch.go: the five sockets (shell, control and
//     stdin are ROUTER, iopub is PUB, the heartbeat a REP that echoes),
//     and the handling of each request between status busy and status
//     idle on IOPub. Replies go out on the socket the request came from,
//     with the request's header as parent_header.
//   - the [Engine] interface: what a language must provide (Execute,
//     Complete, Inspect, IsComplete). [SessionEngine] adapts the
//     tensorsh evaluator to it; the tests also use a toy engine.
//
// # Requests
//
// On shell: kernel_info, execute, complete, inspect, is_complete, history,
// comm_info (no comms exist; a comm_open is closed at once) and the
// deprecated shutdown. On control: shutdown (with restart), interrupt and
// kernel_info. Any other message type is logged and ignored.
//
// An execute_request publishes execute_input, then the cell's stream,
// display_data, clear_output and at most one execute_result, then error
// if it failed; execute_reply follows, then idle. The execution count
// grows for cells with store_history that are not silent; silent cells
// publish nothing but busy and idle. After a failed cell with
// stop_on_error (the default), the execute requests queued before its
// reply are answered with status "aborted" without running, as ipykernel
// does.
//
// # IPython's habits
//
// The kernel keeps the history of its cells in tensorsh/history.jsonl in
// Jupyter's data directory ([DefaultHistoryFile]; the last 10000 cells of
// all kernel sessions, each kernel a new session), so history_request's
// tail and search reach earlier sessions as ipykernel's do, and %history
// prints them. Two magics act on the notebook or the kernel rather than
// the language: %history, and %load FILE, which replaces the cell with the
// file (a set_next_input payload); every other magic is a directive of the
// language (%run, %time, %timeit, %who, %whos, %lsmagic …). Each cell's
// result is recorded for _, __, ___, _n and Out[n] ([eval.Session.SetResult]),
// and its source for _i, _ii, _iii, _in and In[n] ([eval.Session.SetInput]).
//
// Shell requests run one at a time; control requests have their own
// goroutine, so interrupt_request (and [Kernel.Interrupt], which the
// command wires to SIGINT) cancels the running cell's context while it
// runs. The cell fails with KeyboardInterrupt and the kernel's state
// stays.
//
// # Peers
//
// Anyone who can reach a port speaks ZMTP to it before a signature is
// checked, and go-zeromq/zmq4 v0.17.0 trusts its peers. So the kernel
// accepts connections itself and hands zmq4 only peers that behave; a
// peer that breaks a limit is disconnected (and logged, at most 10 lines
// a second), and the other clients never notice:
//
//   - a frame over 32 MiB, or a message whose frames total more (each
//     frame counted 64 bytes more, so that empty frames count), as
//     libzmq does with ZMQ_MAXMSGSIZE. A browser's messages reach the
//     kernel through Jupyter Server, whose websocket limit is 10 MiB by
//     default (tornado's websocket_max_message_size).
//   - a handshake (greeting and READY) not done within 30 s, libzmq's
//     ZMQ_HANDSHAKE_IVL default, or one zmq4 would fail on. Handshakes
//     run concurrently, so an idle connection holds up no one.
//   - on iopub, anything but subscriptions, or more than 1 MiB of them.
//   - a peer that takes no byte for 30 s while output waits for it.
//
// Output is queued per peer and never waits for a slow one: past 1000
// messages (libzmq's ZMQ_SNDHWM default) or 64 MiB queued for a peer,
// further messages to it are dropped whole, as libzmq drops them. Each
// socket takes at most 256 connections. ZMTP commands from peers (PING)
// are ignored.
//
// # Positions
//
// The protocol counts cursor positions in Unicode code points; engines
// see byte offsets. The kernel converts both ways.
package jupyter
