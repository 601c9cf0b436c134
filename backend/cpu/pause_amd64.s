//go:build amd64 && !purego

#include "textflag.h"

// func spinPause()
//
// One PAUSE: a spinning core leaves the execution units (and the other
// thread of its core, where the host's vCPUs share one) to other work.
TEXT ·spinPause(SB), NOSPLIT, $0-0
	PAUSE
	RET
