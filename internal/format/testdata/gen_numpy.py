# gen_numpy.py writes the numpy goldens of package format's tests:
#
#   numpy_f16.txt.gz      str() of every positive finite float16, by bits
#   numpy_scalars.txt.gz  "float32|float64 HEXBITS str" for sampled values
#   numpy_arrays.json.gz  str() of random arrays (see corpusCase)
#
# Run it with Debian's numpy 1.24 from this folder:
#
#   NPY_PROMOTION_STATE=weak /usr/bin/python3 gen_numpy.py
#
# It emulates numpy >= 2.3: NEP 50 comparisons (the weak promotion state)
# and the dtype-dependent scientific cutoff 10**min(8, finfo.precision)
# in FloatingFormat.fillFormat. numpy 1.24's str() is otherwise numpy 2's.
import gzip, inspect, json, random, struct, textwrap
import numpy as np
import numpy.core.arrayprint as ap

assert np._get_promotion_state() == 'weak', 'set NPY_PROMOTION_STATE=weak'
src = textwrap.dedent(inspect.getsource(ap.FloatingFormat.fillFormat))
assert "max_val >= 1.e8" in src
src = src.replace("max_val >= 1.e8", "max_val >= 10.**min(8, np.finfo(data.dtype).precision)")
ns = dict(ap.__dict__)
exec(src, ns)
ap.FloatingFormat.fillFormat = ns['fillFormat']

random.seed(7)

with gzip.open('numpy_f16.txt.gz', 'wt') as f:
    for b in range(0x7c00):
        f.write(str(np.array([b], dtype=np.uint16).view(np.float16)[0]) + '\n')

def sample_bits(width, mant, n, specials):
    s = set(random.getrandbits(width) for _ in range(n))
    exp = width - 1 - mant
    for e in range(0, 1 << exp, max(1, (1 << exp) // 64)):
        for m in [0, 1, 2, (1 << mant) - 1, (1 << mant) - 2, 1 << (mant - 1)]:
            s.add((e << mant) | m)
            s.add((1 << (width - 1)) | (e << mant) | m)
    code = '<f' if width == 32 else '<d'
    ucode = '<I' if width == 32 else '<Q'
    for x in specials:
        s.add(struct.unpack(ucode, struct.pack(code, x))[0])
    for _ in range(n // 4):
        x = random.choice([float(random.randint(-10**9, 10**9)),
                           random.randint(-10**6, 10**6) / random.choice([10, 100, 1000, 8, 64, 3, 7])])
        s.add(struct.unpack(ucode, struct.pack(code, x))[0])
    return sorted(s)

with gzip.open('numpy_scalars.txt.gz', 'wt') as f:
    specials = [0.1, 0.2, 0.3, 1/3, 2/3, 1e16, 9.999e15, 1e-4, 9.99e-5, 1e23, 1e22, 3.4e38, 1e-45, 16777217.0, 123456.789]
    for b in sample_bits(32, 23, 2000, specials):
        f.write('float32 %08x %s\n' % (b, np.array([b], dtype=np.uint32).view(np.float32)[0]))
    specials += [5e-324, 1.7976931348623157e308, 2.0**53 + 2, 9007199254740993.0, 123456789012345678.0]
    for b in sample_bits(64, 52, 2000, specials):
        f.write('float64 %016x %s\n' % (b, np.array([b], dtype=np.uint64).view(np.float64)[0]))

rng = np.random.default_rng(1)

def values(n):
    r = rng.integers(0, 9)
    if r == 0: v = rng.integers(-20, 20, n).astype(float)
    elif r == 1: v = rng.normal(size=n)
    elif r == 2: v = rng.normal(size=n) * 10.0**rng.integers(-12, 12)
    elif r == 3: v = rng.integers(-1000, 1000, n) / rng.choice([2, 4, 8, 10, 100])
    elif r == 4: v = np.exp(rng.normal(size=n) * rng.integers(1, 20))
    elif r == 5: v = rng.integers(0, 4, n) * 0.25
    elif r == 6: v = rng.integers(-3, 3, n) * 10.0**rng.integers(-6, 10)
    elif r == 7: v = rng.uniform(0, 2000, n)
    else: v = rng.normal(size=n) * 1e3
    if rng.random() < 0.2:
        for _ in range(rng.integers(1, 3)):
            v[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0])
    return v

shapes = [(1,), (2,), (3,), (5,), (7,), (12,), (30,), (2, 2), (3, 4), (4, 3), (2, 3, 4), (2, 2, 2, 2),
          (1, 1), (6, 9), (3, 17), (1, 40), (1001,), (35, 31), (3, 20, 20), (2000,), (11, 11, 11)]
dts = ['float16', 'float32', 'float64', 'complex64', 'complex128', 'int8', 'int16', 'int32', 'int64',
       'uint8', 'uint16', 'uint32', 'uint64']
cases = []
with np.errstate(all='ignore'):
    for _ in range(400):
        shape = shapes[rng.integers(0, len(shapes))]
        if np.prod(shape) > 1000 and rng.random() < 0.7:
            shape = shapes[rng.integers(0, 16)]
        dt = dts[rng.integers(0, len(dts))]
        n = int(np.prod(shape))
        lw = int(rng.choice([75, 75, 75, 40, 100, 20]))
        if dt.startswith('float'):
            a = values(n).astype(dt)
            bits = a.view({'float16': np.uint16, 'float32': np.uint32, 'float64': np.uint64}[dt])
            data = ['%x' % b for b in bits]
        elif dt.startswith('complex'):
            p = 'float32' if dt == 'complex64' else 'float64'
            u = np.uint32 if p == 'float32' else np.uint64
            re = values(n)
            im = values(n) if rng.random() < 0.8 else np.zeros(n)
            a = (re + 1j * im).astype(dt)
            data = ['%x,%x' % (x, y) for x, y in zip(a.real.astype(p).view(u), a.imag.astype(p).view(u))]
        else:
            info = np.iinfo(dt)
            r = rng.integers(0, 4)
            if r == 0: a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
            elif r == 1: a = rng.integers(max(info.min, -100), 100, n).astype(dt)
            elif r == 2: a = np.array([info.min, info.max] * n, dtype=dt)[:n]
            else: a = rng.integers(0, 10, n).astype(dt)
            data = [str(x) for x in a]
        a = a.reshape(shape)
        s = np.array2string(a, max_line_width=lw, separator=' ')
        assert lw != 75 or s == str(a)
        cases.append({"dtype": dt, "shape": list(shape), "width": lw, "data": data, "str": s})
with gzip.open('numpy_arrays.json.gz', 'wt') as f:
    json.dump(cases, f, separators=(',', ':'))
