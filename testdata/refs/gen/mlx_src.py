#!/usr/bin/env python3
"""Writes testdata/refs/mlx.json from MLX's own source text (MLX has no
build for this machine, so the table is read, not run).

"pairs" is type_rules of mlx/dtype.cpp (promote_types), the rows below as
they stand in the source with float64 (ml-explore/mlx, 14 dtypes). The only
copy of the 14-dtype table in the search index is a CUDA fork that marks the
two cells it changed (/* PATCHED */: float32 with bfloat16); those two cells
are restored to upstream's float32, the value of the 13-dtype upstream table
at commit 7047370498039dd3ced46b33ef2e9da786e5d79d.

"array_scalar" applies python/src/utils.cpp (commit
003ef617be48dd386a4f1ad80d2c02cb25dcc795), to_arrays and to_array, to an
array of each dtype meeting a Python scalar: the scalar becomes an array of
the array's dtype (bool_ an exception for ints: int32; a float meeting a
non-floating dtype: float32; a complex: complex64); an int outside the range
of an integer dtype narrower than 8 bytes is an error; then promote_types.

"divide" and "unary" follow mlx/ops.cpp at commit
fc96f021d7fd3ac34ce25d74e8da07593ea72d3d: at_least_float for divide and exp;
sum and prod accumulate ints of at most 4 bytes in int32 or uint32 (bool in
int32); abs of complex64 is float32; argmax is uint32.

    python3 testdata/refs/gen/mlx_src.py > testdata/refs/mlx.json
"""
import json, sys

ROWS = """
// bool       uint8      uint16     uint32     uint64     int8       int16      int32      int64      float16    float32   float64    bfloat16   complex64
  {bool_,     uint8,     uint16,    uint32,    uint64,    int8,      int16,     int32,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // bool
  {uint8,     uint8,     uint16,    uint32,    uint64,    int16,     int16,     int32,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // uint8
  {uint16,    uint16,    uint16,    uint32,    uint64,    int32,     int32,     int32,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // uint16
  {uint32,    uint32,    uint32,    uint32,    uint64,    int64,     int64,     int64,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // uint32
  {uint64,    uint64,    uint64,    uint64,    uint64,    float32,   float32,   float32,   float32,   float16,   float32,  float64,   bfloat16,  complex64}, // uint64
  {int8,      int16,     int32,     int64,     float32,   int8,      int16,     int32,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // int8
  {int16,     int16,     int32,     int64,     float32,   int16,     int16,     int32,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // int16
  {int32,     int32,     int32,     int64,     float32,   int32,     int32,     int32,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // int32
  {int64,     int64,     int64,     int64,     float32,   int64,     int64,     int64,     int64,     float16,   float32,  float64,   bfloat16,  complex64}, // int64
  {float16,   float16,   float16,   float16,   float16,   float16,   float16,   float16,   float16,   float16,   float32,  float64,   float32,   complex64}, // float16
  {float32,   float32,   float32,   float32,   float32,   float32,   float32,   float32,   float32,   float32,   float32,  float64,   float32,   complex64}, // float32
  {float64,   float64,   float64,   float64,   float64,   float64,   float64,   float64,   float64,   float64,   float64,  float64,   float64,   complex64}, // float64
  {bfloat16,  bfloat16,  bfloat16,  bfloat16,  bfloat16,  bfloat16,  bfloat16,  bfloat16,  bfloat16,  float32,   float32,  float64,   bfloat16,  complex64}, // bfloat16
  {complex64, complex64, complex64, complex64, complex64, complex64, complex64, complex64, complex64, complex64, complex64,complex64, complex64, complex64}, // complex64
"""

lines = [l.strip() for l in ROWS.strip().splitlines()]
cols = lines[0].lstrip("/ ").split()
table = {}
for l in lines[1:]:
    cells, name = l.split("//")
    vals = [v.strip() for v in cells.strip().strip("{},").split(",")]
    name = name.strip()
    assert len(vals) == len(cols), l
    table[name] = dict(zip(cols, ["bool" if v == "bool_" else v for v in vals]))
pt = lambda a, b: table[a][b]

INTS = {"uint8": (0, 255), "uint16": (0, 65535), "uint32": (0, 2**32 - 1),
        "int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1)}
FLOATING = {"float16", "float32", "float64", "bfloat16"}

def weak(d, kind, val):
    if kind == "bool":
        return d
    if kind == "int":
        if not (-2**63 <= val < 2**63):
            return None
        if d in INTS and not (INTS[d][0] <= val <= INTS[d][1]):
            return None
        return "int32" if d == "bool" else d
    if kind == "float":
        return d if d in FLOATING else "float32"
    return "complex64"

SCALARS = {"bool_true": ("bool", True), "int_1": ("int", 1), "int_300": ("int", 300),
           "int_neg1": ("int", -1), "int_70000": ("int", 70000), "int_2p40": ("int", 2**40),
           "int_2p63": ("int", 2**63), "float_1.5": ("float", 1.5), "complex_1j": ("complex", 1j)}
array_scalar = {}
for d in cols:
    for name, (kind, val) in SCALARS.items():
        w = weak(d, kind, val)
        array_scalar[f"{d},{name}"] = "error: overflow" if w is None else pt(d, w)

def at_least_float(d):
    return d if d in FLOATING or d == "complex64" else pt(d, "float32")

divide = {f"{a},{b}": at_least_float(pt(a, b)) for a in cols for b in cols}
unary = {f"{d},exp": at_least_float(d) for d in cols}
def sum_type(d):  # sum and prod in mlx/ops.cpp at fc96f021d7fd3ac34ce25d74e8da07593ea72d3d
    if d == "bool" or d in ("int8", "int16", "int32"):
        return "int32"
    if d in ("uint8", "uint16", "uint32"):
        return "uint32"
    return d

unary.update({f"{d},sum": sum_type(d) for d in cols})
unary.update({f"{d},prod": sum_type(d) for d in cols})
unary.update({f"{d},abs": ("float32" if d == "complex64" else d) for d in cols})
unary.update({f"{d},argmax": "uint32" for d in cols})

out = {"library": "mlx (source: mlx/dtype.cpp, mlx/ops.cpp, python/src/utils.cpp)",
       "pairs": {f"{a},{b}": pt(a, b) for a in cols for b in cols},
       "array_scalar": array_scalar, "divide": divide, "unary": unary}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
