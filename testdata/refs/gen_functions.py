"""Writes numpy1_functions.json: the result dtypes of NumPy's everyday
functions (tan … isfinite, arctan2, hypot) as the installed NumPy gives
them. Run with a Python whose NumPy is 1.24 (Debian's python3-numpy):

    /usr/bin/python3 testdata/refs/gen_functions.py > testdata/refs/numpy1_functions.json
"""
import json
import warnings

import numpy as np

warnings.simplefilter("ignore")

UNARY = ["tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh",
         "log2", "log10", "exp2", "expm1", "sign", "square", "reciprocal", "isfinite"]
BINARY = ["arctan2", "hypot"]
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
SCALARS = {"int_1": 1, "int_-1": -1, "int_300": 300, "float_1.5": 1.5, "float_1e300": 1e300, "bool_true": True}


def result(f, *args):
    try:
        return str(f(*args).dtype)
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return "error: " + type(e).__name__


out = {"library": "numpy " + np.__version__, "unary": {}, "binary": {}, "array_scalar": {}}
for name in UNARY:
    for d in DTYPES:
        out["unary"][name + "," + d] = result(getattr(np, name), np.ones(2, dtype=d))
for name in BINARY:
    for a in DTYPES:
        for b in DTYPES:
            out["binary"][name + "," + a + "," + b] = result(getattr(np, name), np.ones(2, dtype=a), np.ones(2, dtype=b))
        for s, v in SCALARS.items():
            out["array_scalar"][name + "," + a + "," + s] = result(getattr(np, name), np.ones(2, dtype=a), v)
print(json.dumps(out, indent=1, sort_keys=True))
