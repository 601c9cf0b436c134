package eval

import (
	"github.com/tensorsh/tensorsh/dtypes"
	"github.com/tensorsh/tensorsh/promote"
)

// Python's integer arithmetic on literals: 2 ** 40 is the Python int
// 1099511627776 whatever the policy, because Python folds it before any
// array library sees it. Only when it meets an array (or a dtype call)
// does the library parse it, and then a value no dtype of the policy
// holds is an error (jax with x64 off: OverflowError for ints beyond
// int32, jax/_src/dtypes.py, _scalar_type_to_dtype).

// isPythonInt reports whether o is a literal int that the policy cannot
// type but its host language, Python, holds as it is: a result that stays
// a Python int.
func (c *compiler) isPythonInt(o *operand) bool {
	return o.kind == LiteralValue && o.litErr != nil && o.lit.Kind == promote.IntScalar &&
		c.policy.Host() == promote.Python
}

// pythonInt is the Value of such a literal: no dtype (Type is invalid),
// shown as Python's int.
func pythonInt(lit promote.Scalar) *Value {
	return &Value{Kind: LiteralValue, Lit: lit}
}

// litTypeName is the type a literal Value shows: its policy type, or
// "int" for a Python int that no dtype of the policy holds.
func (v *Value) litTypeName() string {
	if !v.Type.DType.IsValid() {
		return "int"
	}
	return v.Type.String()
}

// untypedLiteral reports whether v is a Python int without a dtype.
func (v *Value) untypedLiteral() bool {
	return v.Kind == LiteralValue && v.Type.DType == dtypes.Invalid
}
