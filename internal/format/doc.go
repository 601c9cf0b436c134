// Package format turns tensors into text for a terminal, JSON for --json,
// and HTML for Jupyter.
//
// # Text
//
// [Values] prints the values the way numpy's str(array) does (numpy 2.3 and
// later, default print options), and [TypeLine] the line that follows them:
//
//	[2.5 3.5 4.5]
//	f32?[3] cpu
//
// The rules are numpy's arrayprint:
//   - Floats print the shortest decimal that reads back as the same value
//     of their own dtype (Dragon4's unique mode: float16 0.1 prints as
//     0.1, not 0.0999755859375), with at most 8 digits after the point.
//   - One notation for the whole array: scientific when the largest
//     magnitude is at least 10^min(8, p) (p is the dtype's decimal
//     precision: 3 for float16, 6 for float32, 15 for float64), the
//     smallest non-zero one is below 1e-4, or their ratio passes 1000.
//   - Fields are padded to one width (see below).
//   - Past Options.Threshold elements (1000) only Options.EdgeItems (3)
//     items of each edge are shown, with "..." between; lines wrap at
//     Options.Width.
//
// For example:
//
//	[1.   2.25]
//	[ nan  1.5 -2. ]
//	[1.0e-05 2.5e-05]
//	[1.+2.j 0.-1.j]
//	[[ 1  2]
//	 [30 40]]
//
// The formats numpy has no float type for (bfloat16, float8_e4m3fn,
// float8_e5m2, tensor_float32) follow the same rules with their own
// precision (p is 2 for bfloat16 and 3 for tensor_float32; the float8
// formats use p = 1). Bools print as true and false; a vector of them is
// not padded ("[true false]"), columns of a matrix are.
//
// [Scalar] prints one value as numpy prints a scalar: "2.5", "1.0", "-4",
// "1e+16", "(1+2j)", "nan".
//
// # JSON
//
// [JSON] gives one object per tensor, [DTypeJSON] one per dtype value and
// [ErrorJSON] one per error, as SPEC §5 lays out. Floats use the same
// shortest digits as the text; values that are not finite are the strings
// "nan", "inf" and "-inf".
//
// # HTML
//
// [HTML] gives a fragment for a notebook's text/html: a badge with the
// dtype, shape and device (a weak type's '?' highlighted), then a table of
// the values. It uses inline styles only and is well-formed XML.
//
// Every function first runs [Check], so a malformed tensor gives an error
// (shown in place of the values by Values, Scalar and HTML), never a panic.
package format
