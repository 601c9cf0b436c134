package jupyter

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
)

// A ConnectionInfo is the content of a connection file: where the
// kernel's five sockets listen and the key that signs messages.
// Unknown keys in the file are ignored.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`        // an address, or a path prefix for ipc
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and checks a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var c ConnectionInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("connection file %s: %v", path, err)
	}
	if err := c.check(); err != nil {
		return c, fmt.Errorf("connection file %s: %v", path, err)
	}
	return c, nil
}

// check fills in defaults and rejects what the kernel cannot serve.
func (c *ConnectionInfo) check() error {
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	switch c.Transport {
	case "tcp":
		if c.IP == "" {
			c.IP = "127.0.0.1"
		}
	case "ipc":
		if c.IP == "" {
			return fmt.Errorf("ipc transport needs ip (a path prefix)")
		}
	default:
		return fmt.Errorf("unsupported transport %q (want tcp or ipc)", c.Transport)
	}
	switch c.SignatureScheme {
	case "hmac-sha256":
	case "":
		if c.Key != "" {
			return fmt.Errorf("key given without signature_scheme")
		}
	default:
		return fmt.Errorf("unsupported signature_scheme %q (want hmac-sha256)", c.SignatureScheme)
	}
	for _, p := range []int{c.ShellPort, c.ControlPort, c.IOPubPort, c.StdinPort, c.HBPort} {
		if p < 0 || p > 65535 {
			return fmt.Errorf("port %d out of range", p)
		}
	}
	return nil
}

// endpoint returns the zmq endpoint of port: "tcp://ip:port" or
// "ipc://ip-port".
func (c *ConnectionInfo) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return "tcp://" + net.JoinHostPort(c.IP, strconv.Itoa(port))
}
