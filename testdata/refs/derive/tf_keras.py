"""Derive testdata/refs/tf*.json and keras.json from the libraries' source.

TensorFlow and Keras are not installed where tensorsh is built, so these
tables are derived, not produced by running the libraries:

- tf_numpy.json, tf_numpy_safe.json: HALF below is a transcription of the
  literal table _BINARY_DTYPE_RES_HALF in
  tensorflow/tensorflow tensorflow/python/framework/flexible_dtypes.py
  (commit 25305f139fe78e2de9b7831f4f869656e4bceb82), completed by symmetry
  as _initialize() does; Python scalars as _get_dtype_and_weakness types
  them, then converted to the result's dtype as
  tensorflow/python/ops/weak_tensor_ops.py _convert_or_cast does
  (convert_to_tensor with that dtype, the eager conversion of tf.json).
- tf.json: the eager conversion of a Python scalar to a tensor's dtype, as
  tensorflow/python/lib/core/py_seq_tensor.cc (PySeqToTFE_TensorHandle)
  and tensorflow/python/eager/pywrap_tensor.cc (IsCompatible,
  ConvertToEagerTensorUncached) do it, and math_ops._TRUEDIV_TABLE.
- keras.json: keras.backend.result_type as
  keras-team/keras keras/src/backend/common/dtypes.py
  (commit 01a4a576bcf765dcce90b79e33297561982df460) defines it, with the JAX
  backend and floatx float32, re-derived here from its lattice.

Run: python3 testdata/refs/derive/tf_keras.py  (writes the JSON files).
"""
import json
import os

OUT = os.path.join(os.path.dirname(__file__), "..")

DT = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32",
      "int64", "bfloat16", "float16", "float32", "float64", "complex64",
      "complex128"]

# ---------------------------------------------------------------- tf-numpy
# Names: a dtype, or a weak dtype with "?"; "S" is SAFE, "A" is ALL.
HALF_ROWS = """
bool: bool bool S, uint8 uint8 S, uint16 uint16 S, uint32 uint32 S, uint64 uint64 S, int8 int8 S, int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 S, float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? int32? S, int64? int64? S, float32? float32? S, float64? float64? S, complex128? complex128? S
uint8: uint8 uint8 S, uint16 uint16 S, uint32 uint32 S, uint64 uint64 S, int8 int16 A, int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 S, float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? uint8 S, int64? uint8 S, float32? float64? A, float64? float64? S, complex128? complex128? S
uint16: uint16 uint16 S, uint32 uint32 S, uint64 uint64 S, int8 int32 A, int16 int32 A, int32 int32 S, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? uint16 S, int64? uint16 S, float32? float64? A, float64? float64? S, complex128? complex128? S
uint32: uint32 uint32 S, uint64 uint64 S, int8 int64 A, int16 int64 A, int32 int64 A, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A, float64 float64 S, complex64 complex64 A, complex128 complex128 S, int32? uint32 S, int64? uint32 S, float32? float64? A, float64? float64? S, complex128? complex128? S
uint64: uint64 uint64 S, int8 float64? A, int16 float64? A, int32 float64? A, int64 float64? A, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A, float64 float64 A, complex64 complex64 A, complex128 complex128 A, int32? uint64 S, int64? uint64 S, float32? float64? A, float64? float64? A, complex128? complex128? A
int8: int8 int8 S, int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 S, float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? int8 S, int64? int8 S, float32? float64? A, float64? float64? S, complex128? complex128? S
int16: int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? int16 S, int64? int16 S, float32? float64? A, float64? float64? S, complex128? complex128? S
int32: int32 int32 S, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A, float64 float64 S, complex64 complex64 A, complex128 complex128 S, int32? int32 S, int64? int32 S, float32? float64? A, float64? float64? S, complex128? complex128? S
int64: int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A, float64 float64 A, complex64 complex64 A, complex128 complex128 A, int32? int64 S, int64? int64 S, float32? float64? A, float64? float64? A, complex128? complex128? A
bfloat16: bfloat16 bfloat16 S, float16 float32 A, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? bfloat16 S, int64? bfloat16 S, float32? bfloat16 S, float64? bfloat16 S, complex128? complex64 A
float16: float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? float16 S, int64? float16 S, float32? float16 S, float64? float16 S, complex128? complex64 A
float32: float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S, int32? float32 S, int64? float32 S, float32? float32 S, float64? float32 S, complex128? complex64 A
float64: float64 float64 S, complex64 complex128 A, complex128 complex128 S, int32? float64 S, int64? float64 S, float32? float64 S, float64? float64 S, complex128? complex128 S
complex64: complex64 complex64 S, complex128 complex128 S, int32? complex64 S, int64? complex64 S, float32? complex64 S, float64? complex64 S, complex128? complex64 S
complex128: complex128 complex128 S, int32? complex128 S, int64? complex128 S, float32? complex128 S, float64? complex128 S, complex128? complex128 S
int32?: int32? int32? S, int64? int64? S, float32? float32? S, float64? float64? S, complex128? complex128? S
int64?: int64? int64? S, float32? float32? S, float64? float64? S, complex128? complex128? S
float32?: float32? float32? S, float64? float64? S, complex128? complex128? S
float64?: float64? float64? S, complex128? complex128? S
complex128?: complex128? complex128? S
"""

def parse_half():
    half = {}
    for line in HALF_ROWS.strip().splitlines():
        lhs, rest = line.split(":", 1)
        row = {}
        for cell in rest.split(","):
            rhs, res, mode = cell.split()
            row[rhs] = (res, mode)
        half[lhs] = row
    return half

HALF = parse_half()
NODES = DT + ["int32?", "int64?", "float32?", "float64?", "complex128?"]

def tfn_full(a, b):
    if b in HALF.get(a, {}):
        return HALF[a][b]
    return HALF[b][a]

def tfn_cell(res, mode, a, b, safe):
    if safe and mode == "A":
        def show(n):
            return "(<dtype: '%s'>, weak=%s)" % (n.rstrip("?"), n.endswith("?"))
        return ("error: TypeError: In promotion mode PromoMode.SAFE, implicit dtype "
                "promotion between %s and %s is disallowed." % (show(a), show(b)))
    return {"dtype": res.rstrip("?"), "weak": res.endswith("?")}

# _get_dtype_and_weakness for Python scalars.
SCALARS = ["bool_true", "int_1", "int_300", "int_neg1", "int_2p31", "float_1.5",
           "float_1e300", "complex_1j"]

def py_value(name):
    kind, text = name.split("_", 1)
    if kind == "bool":
        return True
    if kind == "int":
        if text.startswith("2p"):
            return 2 ** int(text[2:])
        return -int(text[3:]) if text.startswith("neg") else int(text)
    if kind == "float":
        return float(text)
    return complex(0, float(text[:-1]))

def tfn_scalar_node(v):
    if isinstance(v, bool):
        return "bool", None
    if isinstance(v, int):
        if not -2**31 <= v < 2**31:
            return None, "error: OverflowError: Python int %d too large to convert to np.int32" % v
        return "int32?", None
    if isinstance(v, float):
        return "float32?", None
    return "complex128?", None

def write_tfn(safe):
    name = "tf_numpy_safe" if safe else "tf_numpy"
    pairs, scal = {}, {}
    for a in NODES:
        for b in NODES:
            res, mode = tfn_full(a, b)
            pairs[a + "," + b] = tfn_cell(res, mode, a, b, safe)
    for a in DT:
        for s in SCALARS:
            n, err = tfn_scalar_node(py_value(s))
            if err:
                scal[a + "," + s] = err
                continue
            res, mode = tfn_full(a, n)
            cell = tfn_cell(res, mode, a, n, safe)
            if isinstance(cell, dict):
                # weak_tensor_ops._convert_or_cast: a Python scalar is
                # converted with convert_to_tensor(x, dtype=result dtype).
                try:
                    tf_convert(py_value(s), res.rstrip("?"))
                except ConvError as e:
                    cell = "error: " + str(e)
            scal[a + "," + s] = cell
    doc = {
        "library": "tensorflow flexible_dtypes.py _BINARY_DTYPE_RES_HALF (commit 25305f13), "
                   "dtype_conversion_mode=%s; derived from source" % ("safe" if safe else "all"),
        "pairs": pairs,
        "array_scalar": scal,
    }
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")

# ---------------------------------------------------------------- tf classic
DATATYPE_STRING = {"float16": "half", "float32": "float", "float64": "double"}

def dts(d):
    return DATATYPE_STRING.get(d, d)

def is_int(d):
    return d.startswith("int") or d.startswith("uint")

def is_float(d):
    return d in ("bfloat16", "float16", "float32", "float64")

def is_complex(d):
    return d.startswith("complex")

def compatible(desired, returned):
    # pywrap_tensor.cc IsCompatible.
    if desired == returned:
        return True
    if is_int(desired) and is_int(returned):
        return True
    if is_float(desired) and (is_float(returned) or is_int(returned)):
        return True
    if is_complex(desired) and (is_complex(returned) or is_int(returned) or is_float(returned)):
        return True
    return False

class ConvError(Exception):
    pass

def convert_direct(v, d):
    """The converter PySeqToTFE_TensorHandle has for requested dtype d: True
    when it converts v, False when it reports an error, None when d has no
    converter of its own. Raises ConvError for a pending Python error."""
    isbool, isint = isinstance(v, bool), isinstance(v, int)
    if d == "bool":
        return isbool
    if d in ("int64", "int32"):
        if not isint:
            return False
        if not -2**63 <= v < 2**63:
            return False
        if d == "int32" and not -2**31 <= v < 2**31:
            return False
        return True
    if d == "uint64":
        if not isint:
            return False
        if v < 0 or v >= 2**64:
            raise ConvError("OverflowError")
        return True
    if d in ("float32", "float64", "float16"):
        if isinstance(v, float):
            import struct
            if d == "float64":
                return True
            limit = 65520.0 if d == "float16" else float.fromhex("0x1.ffffffp127")
            return not (abs(v) >= limit and v == v and abs(v) != float("inf"))
        if isint:
            return float(v) != float("inf") if abs(v) < 2**1024 else False
        return False
    if d == "complex128":
        return isinstance(v, (int, float, complex))
    return None

def inferred(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float32"
    return "complex128"

def tf_convert(v, d):
    """The dtype of the tensor ConvertToEagerTensorUncached makes of v with
    requested dtype d; raises ConvError."""
    ok = convert_direct(v, d)
    if ok:
        return d
    inf = inferred(v)
    # The second switch of PySeqToTFE_TensorHandle, with a requested dtype.
    if inf == "int64":
        if not -2**63 <= v < 2**63:
            raise ConvError("ValueError: Can't convert Python sequence with out-of-range integer to Tensor.")
        handle = "int64"
    elif inf == "float32":
        handle = "float64"
    else:
        handle = inf
    if handle != d and not compatible(d, handle):
        raise ConvError("TypeError: Cannot convert %r to EagerTensor of dtype %s" % (v, dts(d)))
    return d

def write_tf():
    pairs, scal, div = {}, {}, {}
    truediv = {"uint8": "float32", "int8": "float32", "uint16": "float32",
               "int16": "float32", "uint32": "float64", "int32": "float64",
               "uint64": "float64", "int64": "float64"}
    for a in DT:
        for b in DT:
            k = a + "," + b
            if a == b:
                pairs[k] = "error: InvalidArgumentError: Value for attr 'T' of bool is not in the list of allowed values" if a == "bool" else a
                if a == "bool":
                    div[k] = "error: TypeError: Invalid dtype tf.bool in __truediv__"
                else:
                    div[k] = truediv.get(a, a)
            else:
                pairs[k] = ("error: InvalidArgumentError: cannot compute AddV2 as input #1(zero-based) "
                            "was expected to be a %s tensor but is a %s tensor [Op:AddV2]" % (dts(a), dts(b)))
                div[k] = "error: TypeError: `x` and `y` must have the same dtype, got tf.%s != tf.%s." % (a, b)
        for s in SCALARS + ["int_2p40", "int_2p63", "int_2p64"]:
            k = a + "," + s
            try:
                d = tf_convert(py_value(s), a)
                scal[k] = "error: InvalidArgumentError: Value for attr 'T' of bool is not in the list of allowed values" if d == "bool" else d
            except ConvError as e:
                scal[k] = "error: " + str(e)
    doc = {
        "library": "tensorflow 2 eager conversion (py_seq_tensor.cc, pywrap_tensor.cc IsCompatible) "
                   "and math_ops._TRUEDIV_TABLE; derived from source",
        "pairs": pairs,
        "truediv": div,
        "tensor_scalar": scal,
    }
    with open(os.path.join(OUT, "tf.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")

# ---------------------------------------------------------------- keras
KDT = DT + ["float8_e4m3fn", "float8_e5m2"]
UP = {
    "bool": ["int"],
    "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"], "uint64": ["float"],
    "int": ["uint8", "int8", "complex64"],
    "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": ["float"],
    "float": ["bfloat16", "float16"],
    "bfloat16": ["float32"], "float16": ["float32"],
    "float32": ["float64", "complex64"], "float64": ["complex128"],
    "complex64": ["complex128"], "complex128": [],
}

def upper(n):
    s = {n}
    for m in UP[n]:
        s |= upper(m)
    return s

def lub(nodes):
    common = set.intersection(*(upper(n) for n in nodes))
    least = [c for c in common if common <= upper(c)]
    if len(least) != 1:
        raise ValueError("Input dtypes %s have no available implicit dtype promotion path." % (tuple(nodes),))
    return least[0]

TO32 = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}

def keras_result_type(*args):
    """args: dtype names, or the Python types int, float, bool, complex."""
    for a in args:
        if a in ("float8_e4m3fn", "float8_e5m2"):
            raise ValueError("There is no implicit conversions from float8 dtypes to others.")
    typed = []
    for a in args:
        if a is int:
            typed.append(("int32", True))
        elif a is float:
            typed.append(("float32", True))
        elif a is bool:
            typed.append(("bool", False))
        elif a is complex:
            typed.append(("complex64", False))
        else:
            typed.append((a, False))
    names = [t[0] for t in typed]
    weak = [t[1] for t in typed]
    if len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = lub(set(names)), True
    else:
        nodes = set()
        for n, w in typed:
            if w and n != "bool":
                nodes.add("float" if "float" in n else "int")
            else:
                nodes.add(n)
        out = lub(nodes)
        out_weak = out in ("int", "float")
    if out != "bool" and out_weak:
        ind = "f" if out == "bfloat16" else out[0]
        out = {"i": "int32", "u": "uint32", "b": "bool"}.get(ind, "float32")
    return TO32.get(out, out)

def write_keras():
    pairs, weak, div = {}, {}, {}
    for a in KDT:
        for b in KDT:
            k = a + "," + b
            try:
                pairs[k] = keras_result_type(a, b)
            except ValueError as e:
                pairs[k] = "error: ValueError: " + str(e)
            try:
                div[k] = keras_result_type(a, b, float)
            except ValueError as e:
                div[k] = "error: ValueError: " + str(e)
        for name, t in (("int_1", int), ("float_1.5", float), ("bool_true", bool), ("complex_1j", complex)):
            k = a + "," + name
            try:
                weak[k] = keras_result_type(a, t)
            except ValueError as e:
                weak[k] = "error: ValueError: " + str(e)
    doc = {
        "library": "keras 3 keras.backend.result_type, keras/src/backend/common/dtypes.py "
                   "(commit 01a4a576), JAX backend, floatx float32; derived from source",
        "pairs": pairs,
        "truediv": div,
        "array_scalar": weak,
    }
    with open(os.path.join(OUT, "keras.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")

if __name__ == "__main__":
    write_tfn(False)
    write_tfn(True)
    write_tf()
    write_keras()
