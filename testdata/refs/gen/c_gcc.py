#!/usr/bin/env python3
"""Writes testdata/refs/c.json: the C type of each expression, as GCC decides it.

Every cell is one small C program whose _Generic selection names the type of
an expression; a program GCC refuses gives an "error: ..." cell with GCC's
first diagnostic. Run from the repository root:

    python3 testdata/refs/gen/c_gcc.py > testdata/refs/c.json

GCC 12 on x86-64 (LP64) has _Float16 but not __bf16, so no cell names
bfloat16; promote/c_test.go checks the __bf16 rules against Clang's and
GCC's documentation instead.
"""
import json, os, subprocess, sys, tempfile

TYPES = [  # numpy name, C type
    ("bool", "_Bool"), ("int8", "signed char"), ("int16", "short"), ("int32", "int"),
    ("int64", "long"), ("uint8", "unsigned char"), ("uint16", "unsigned short"),
    ("uint32", "unsigned int"), ("uint64", "unsigned long"), ("float16", "_Float16"),
    ("float32", "float"), ("float64", "double"), ("complex64", "_Complex float"),
    ("complex128", "_Complex double"),
]
GENERIC = "_Generic((E), " + ", ".join(f"{c}: \"{n}\"" for n, c in TYPES) + ", default: \"other\")"

def run(decls, expr, header=""):
    src = f"""#include <stdio.h>
{header}
int main(void) {{
{decls}
  puts({GENERIC.replace("E", expr)});
  return 0;
}}
"""
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "t.c"), os.path.join(d, "t")
        open(c, "w").write(src)
        p = subprocess.run(["gcc", "-std=gnu17", "-o", exe, c, "-lm"], capture_output=True, text=True)
        if p.returncode != 0:
            for line in p.stderr.splitlines():
                if "error:" in line:
                    return "error: " + line.split("error:", 1)[1].strip()
            return "error: " + p.stderr.strip().splitlines()[0]
        return subprocess.run([exe], capture_output=True, text=True).stdout.strip()

out = {"library": subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0] + ", x86-64 LP64, -std=gnu17"}
pairs, mod, shl, where = {}, {}, {}, {}
for a, ca in TYPES:
    for b, cb in TYPES:
        decls = f"  {ca} x = 1; {cb} y = 1;"
        pairs[f"{a},{b}"] = run(decls, "x + y")
        mod[f"{a},{b}"] = run(decls, "x % y")
        shl[f"{a},{b}"] = run(decls, "x << y")
        where[f"{a},{b}"] = run(decls + " int c = 1;", "c ? x : y")
out["pairs"], out["mod"], out["shl"], out["where"] = pairs, mod, shl, where
# An array element meeting a constant: the constant has its own C type.
consts = {"int_1": "1", "int_2147483648": "2147483648", "float_1.5": "1.5", "bool_true": "true", "complex_1j": "1.0i"}
arr = {}
for a, ca in TYPES:
    for k, lit in consts.items():
        arr[f"{a},{k}"] = run(f"  {ca} x = 1;", f"x + {lit}", "#include <stdbool.h>")
out["array_constant"] = arr
# <tgmath.h> exp and unary minus.
un = {}
for a, ca in TYPES:
    un[f"{a},exp"] = run(f"  {ca} x = 1;", "exp(x)", "#include <tgmath.h>")
    un[f"{a},neg"] = run(f"  {ca} x = 1;", "-x")
    un[f"{a},not"] = run(f"  {ca} x = 1;", "~x")
out["unary"] = un
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
