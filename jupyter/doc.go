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
//     is dropped and logged, never handled. An empty key turns signing
//     off.
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
// Shell requests run one at a time; control requests have their own
// goroutine, so interrupt_request (and [Kernel.Interrupt], which the
// command wires to SIGINT) cancels the running cell's context while it
// runs. The cell fails with KeyboardInterrupt and the kernel's state
// stays.
//
// # Positions
//
// The protocol counts cursor positions in Unicode code points; engines
// see byte offsets. The kernel converts both ways.
package jupyter
