package promote

// Helpers for the everyday functions that not every system has: cumsum,
// cumprod, var, std, count_nonzero and dot.

// noFunction is the error for a function fn that the system's library lib
// lacks (the error names the policy), with what to write instead.
func noFunction(p, lib, fn, instead string) *Error {
	msg := lib + " has no " + fn
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

// DefaultDDOF returns the delta degrees of freedom var and std use when the
// call gives none: 0, NumPy's ddof=0 and the Array API's correction=0, or
// the policy's own default (torch.var and torch.std: correction=1).
func DefaultDDOF(p Policy) int {
	if d, ok := p.(interface{ defaultDDOF() int }); ok {
		return d.defaultDDOF()
	}
	return 0
}

// defaultDDOF is torch.var's: aten/src/ATen/native/ReduceOps.cpp
// std_var_all_cpu and std_var_out take correction_opt.value_or(1).
func (torchPolicy) defaultDDOF() int { return 1 }
