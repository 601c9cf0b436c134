package promote

// Helpers for the everyday functions that not every system has: cumsum,
// cumprod, var, std, count_nonzero and dot.

// noFunction is the error for a function the system's library lacks,
// naming the policy and what to write instead.
func noFunction(p, fn, instead string) *Error {
	msg := p + " has no " + fn
	if instead != "" {
		msg += "; " + instead
	}
	return Errorf(p, -1, "%s", msg)
}

// dotAsMatMul answers dot for a system whose dot promotes as its matmul.
func dotAsMatMul(p Policy, lib string, x, y Operand) (Result, error) {
	r, err := p.Binary(MatMul, x, y)
	if err != nil {
		return Result{}, err
	}
	r.Rule = lib + " promotes as matmul: " + r.Rule
	return r, nil
}
