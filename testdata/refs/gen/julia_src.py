#!/usr/bin/env python3
"""Writes testdata/refs/julia.json from Julia's Base source text (Julia has
no build for this machine, so the table is read, not run).

promote_type(T, S) is Julia's algorithm (base/promotion.jl): the
promote_rule of (T, S), else of (S, T), else no common type. The
promote_rule methods below are those of JuliaLang/julia base/int.jl ("with
mixed signedness and same size, Unsigned wins"), base/float.jl (the loop
over Float16/32/64 and the bit integers and Bool; the float-float rules),
base/bool.jl (promote_rule(Bool, T<:Number) = T) and base/complex.jl
(Complex{T} with S<:Real or Complex{S}: Complex{promote_type(T, S)}).

Tables: "pairs" promote_type; "add" broadcast + (bool.jl: +(Bool, Bool) is
Int(x) + Int(y)); "divide" (/: float of integers, float.jl AbstractFloat(x)
= Float64(x)); "array_literal" an array plus a literal (1 is Int64, 1.5
Float64, true Bool, 1.0im ComplexF64: not weak); "unary" sum (reduce.jl
add_sum: Int8–Int32 to Int, UInt8–UInt32 to UInt) and exp (float(x)).

    python3 testdata/refs/gen/julia_src.py > testdata/refs/julia.json
"""
import json, sys

J = {"bool": "Bool", "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
     "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
     "float16": "Float16", "float32": "Float32", "float64": "Float64",
     "complex64": "ComplexF32", "complex128": "ComplexF64"}
N = {v: k for k, v in J.items()}
rules = {}
def rule(t, s, r):
    rules[(t, s)] = r
# base/int.jl
for t, ss in [("Int16", ["Int8", "UInt8"]), ("Int32", ["Int16", "Int8", "UInt16", "UInt8"]),
              ("Int64", ["Int16", "Int32", "Int8", "UInt16", "UInt32", "UInt8"]),
              ("UInt16", ["Int8", "UInt8"]), ("UInt32", ["Int16", "Int8", "UInt16", "UInt8"]),
              ("UInt64", ["Int16", "Int32", "Int8", "UInt16", "UInt32", "UInt8"])]:
    for s in ss:
        rule(t, s, t)
for u, i in [("UInt8", "Int8"), ("UInt16", "Int16"), ("UInt32", "Int32"), ("UInt64", "Int64")]:
    rule(u, i, u)
# base/float.jl
for f in ["Float16", "Float32", "Float64"]:
    for s in ["Int8", "Int16", "Int32", "Int64", "Bool", "UInt8", "UInt16", "UInt32", "UInt64"]:
        rule(f, s, f)
rule("Float32", "Float16", "Float32"); rule("Float64", "Float16", "Float64"); rule("Float64", "Float32", "Float64")
# base/bool.jl
for t in J.values():
    if t != "Bool":
        rule("Bool", t, t)

def real(t):
    return {"ComplexF32": "Float32", "ComplexF64": "Float64"}.get(t, t)

def promote_type(t, s):
    if t == s:
        return t
    if t.startswith("Complex") or s.startswith("Complex"):  # base/complex.jl
        r = promote_type(real(t), real(s))
        return {"Float32": "ComplexF32", "Float64": "ComplexF64", "Float16": "ComplexF16"}.get(r, "Complex{%s}" % r)
    if (t, s) in rules:
        return rules[(t, s)]
    if (s, t) in rules:
        return rules[(s, t)]
    raise KeyError((t, s))

def add(t, s):
    return "Int64" if t == s == "Bool" else promote_type(t, s)

def flt(t):
    return t if t.startswith("Float") or t.startswith("Complex") else "Float64"

names = list(J)
out = {"library": "julia Base 1.11 (source: base/promotion.jl, int.jl, float.jl, bool.jl, complex.jl, reduce.jl)"}
out["pairs"] = {f"{a},{b}": N[promote_type(J[a], J[b])] for a in names for b in names}
out["add"] = {f"{a},{b}": N[add(J[a], J[b])] for a in names for b in names}
out["divide"] = {f"{a},{b}": N[flt(promote_type(J[a], J[b]))] for a in names for b in names}
lits = {"int_1": "Int64", "float_1.5": "Float64", "bool_true": "Bool", "complex_1j": "ComplexF64"}
out["array_literal"] = {f"{a},{k}": N[add(J[a], t)] for a in names for k, t in lits.items()}
small = {"Int8": "Int64", "Int16": "Int64", "Int32": "Int64", "UInt8": "UInt64", "UInt16": "UInt64", "UInt32": "UInt64", "Bool": "Int64"}
out["unary"] = {f"{a},sum": N[small.get(J[a], J[a])] for a in names}
out["unary"].update({f"{a},exp": N[flt(J[a])] for a in names})
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
