package cuda

import (
	"reflect"

	"github.com/tensorsh/tensorsh/backend/internal/plantest"
)

// Plan nodes: an input, a binary and a unary operation.
var (
	in = plantest.In
	nb = plantest.Binary
	nu = plantest.Unary
)

func equalData(a, b any) bool { return reflect.DeepEqual(a, b) }
