"""The TMA probes: one field varied at a time (tests/hw/tma/probes/README.md).

Writes probes.inc for probe.cu (rows as its header line says).  Run: python3 probes.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {"u8": (0, 1), "f16": (6, 2), "f32": (7, 4), "tf32": (11, 4)}
rows = []


def probe(name, d, t, dims, box, interleave=16, swizzle=0, strides=None, estr=None, coords=None, oob=0, im2col=None):
    code, size = TYPES[t]
    rank = len(dims)
    if strides is None:  # rows padded to the interleave size (16 bytes without)
        strides, s = [], dims[0] * size
        row = interleave or 16
        for i in range(1, rank):
            s = (s + row - 1) // row * row
            strides.append(s)
            s *= dims[i]
    estr = estr or [1] * rank
    if coords is None:
        coords = [[0] * rank] + [[int(i == j) for i in range(rank)] for j in range(rank)]
        coords = coords[:4] if rank == 3 else [coords[0], coords[1], coords[2], coords[rank - 1]]
    rows.append((name, d, code, size, {0: 0, 16: 1, 32: 2}[interleave], swizzle, oob, rank, dims, strides, box, estr, coords, im2col))


# the second dimension's box: does it count at all in 3-D?
for b1 in (1, 2, 4, 8):
    probe(f"b1_{b1}", "L", "f32", [4, 9, 5], [4, b1, 2])
# the first dimension's box, wider than the tensor's first dimension
for b0 in (8, 12):
    probe(f"b0_{b0}", "L", "f32", [4, 9, 5], [b0, 4, 2])
# a first dimension of two 16-byte chunks
probe("d0_8", "L", "f32", [8, 9, 5], [4, 4, 2], coords=[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]])
probe("d0_8_b8", "L", "f32", [8, 9, 5], [8, 4, 2], coords=[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]])
# row strides wider than the chunk, and a padded third-dimension stride
for s0 in (32, 48):
    probe(f"s0_{s0}", "L", "f32", [4, 9, 5], [4, 4, 2], strides=[s0, s0 * 9])
probe("s1_pad", "L", "f32", [4, 9, 5], [4, 4, 2], strides=[16, 160])
# element sizes: one chunk of f16 and of u8
probe("f16_slice", "L", "f16", [8, 9, 5], [8, 4, 2])
probe("u8_slice", "L", "u8", [16, 9, 5], [16, 4, 2])
# out of bounds in each dimension
probe("oob", "L", "f32", [4, 9, 5], [4, 4, 2], coords=[[-1, 0, 0], [0, -1, 0], [0, 7, 0], [0, 0, 4]])
probe("oob_far", "L", "f32", [4, 9, 5], [4, 4, 2], coords=[[0, 0, -2], [0, 9, 0], [0, -4, 0], [3, 0, 0]])
# ranks 4 and 5
for b2 in (1, 2, 4):
    probe(f"r4_b2_{b2}", "L", "f32", [4, 6, 5, 3], [4, 4, b2, 2])
probe("r4_b1_2", "L", "f32", [4, 6, 5, 3], [4, 2, 2, 2])
probe("r4_b3_1", "L", "f32", [4, 6, 5, 3], [4, 4, 2, 1])
probe("r5", "L", "f32", [4, 5, 4, 3, 2], [4, 4, 2, 2, 2])
probe("r5_b3_1", "L", "f32", [4, 5, 4, 3, 2], [4, 4, 2, 1, 2])
# element strides in each dimension
probe("es0_2", "L", "f32", [8, 9, 5], [8, 4, 2], estr=[2, 1, 1])
probe("es1_2", "L", "f32", [4, 9, 5], [4, 4, 2], estr=[1, 2, 1])
probe("es2_2", "L", "f32", [4, 9, 5], [4, 4, 4], estr=[1, 1, 2])
# swizzles with a 16-byte interleave
for sw, b1 in ((1, 8), (2, 8), (3, 16)):
    probe(f"sw{sw}_b1_{b1}", "L", "f32", [4, 17, 5], [4, b1, 2], swizzle=sw)
probe("sw2_b1_2", "L", "f32", [4, 17, 5], [4, 2, 2], swizzle=2)
# a 32-byte interleave (swizzle 32B is required)
for b1 in (2, 4):
    probe(f"i32_b1_{b1}", "L", "f32", [8, 9, 5], [8, b1, 2], interleave=32, swizzle=1)
probe("i32_b0_4", "L", "f32", [8, 9, 5], [4, 4, 2], interleave=32, swizzle=1)
probe("i32_f16", "L", "f16", [16, 9, 5], [16, 4, 2], interleave=32, swizzle=1)
# the dimension before the last: its box and element stride, its coordinate out of bounds
probe("r4_b2_256", "L", "f32", [4, 6, 5, 3], [4, 4, 256, 2], estr=[1, 1, 3, 1])
probe("r4_oob", "L", "f32", [4, 6, 5, 3], [4, 4, 2, 2], coords=[[0, 0, -1, 0], [0, 0, 5, 0], [0, 0, 4, 0], [0, 0, 0, 2]])
probe("r5_oob", "L", "f32", [4, 5, 4, 3, 2], [4, 4, 2, 2, 2], coords=[[0, 0, 0, -1, 0], [0, 0, 0, 3, 0], [0, 0, 0, 2, 1], [0, 3, 3, 0, 0]])
probe("oob_2_far", "L", "f32", [4, 9, 5], [4, 4, 2], coords=[[0, 8, 0], [0, 8, 4], [-3, 3, -1], [2, 2, 2]])
# element types: tf32 (rounded?), the NaN fill
probe("tf32", "L", "tf32", [4, 9, 5], [4, 4, 2], coords=[[0, 0, 0], [1, 1, 1], [-1, 0, 0], [0, 0, 4]])
probe("nan_f32", "L", "f32", [4, 9, 5], [4, 4, 2], oob=1, coords=[[-1, 0, 0], [0, -1, 0], [2, 0, 4], [0, 9, 0]])
probe("nan_i32", "L", "f32", [8, 9, 5], [8, 4, 2], interleave=32, swizzle=1, oob=1, coords=[[-1, 0, 0], [0, -1, 0], [6, 0, 4], [0, 0, 0]])
probe("i32_noswizzle", "L", "f32", [8, 9, 5], [8, 4, 2], interleave=32, swizzle=0)
probe("i32_r4", "L", "f16", [16, 6, 5, 3], [16, 2, 2, 2], interleave=32, swizzle=1)
# im2col loads ("I": box is unused; im2col = lower corner, upper corner, channels, pixels, offsets
# per coordinate set)
def im2col(name, t, dims, lower, upper, channels, pixels, coords, offsets, interleave=16, swizzle=0, estr=None, d="I"):
    probe(name, d, t, dims, [1] * len(dims), interleave=interleave, swizzle=swizzle, estr=estr, coords=coords,
          im2col=(lower, upper, channels, pixels, offsets))


im2col("ic_nwc", "f32", [4, 9, 3], [0], [0], 4, 4, [[0, 0, 0], [0, 2, 0], [0, 0, 1], [1, 0, 0]], [[0], [0], [0], [0]])
im2col("ic_nwc_ch8", "f32", [4, 9, 3], [0], [0], 8, 4, [[0, 0, 0], [0, 2, 0], [0, 0, 1], [1, 0, 0]], [[0], [0], [0], [0]])
im2col("ic_nwc_d8", "f32", [8, 9, 3], [0], [0], 4, 4, [[0, 0, 0], [1, 0, 0], [0, 7, 0], [0, 0, 2]], [[0], [0], [0], [0]])
im2col("ic_nwc_px", "f32", [4, 9, 3], [-1], [-1], 4, 8, [[0, -1, 0], [0, 3, 0], [0, -1, 1], [0, 5, 0]], [[0], [1], [2], [0]])
im2col("ic_nhwc", "f32", [4, 5, 4, 2], [0, 0], [0, 0], 4, 8, [[0, 0, 0, 0], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]],
       [[0, 0], [0, 0], [0, 0], [0, 0]])
im2col("ic_nhwc_off", "f32", [4, 5, 4, 2], [-1, -1], [-1, -1], 4, 8, [[0, -1, -1, 0], [0, 0, 0, 0], [0, 2, 1, 1], [0, -1, -1, 1]],
       [[0, 0], [1, 1], [2, 0], [0, 2]])
im2col("ic_nhwc_f16", "f16", [8, 5, 4, 2], [0, 0], [0, 0], 8, 8, [[0, 0, 0, 0], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]],
       [[0, 0], [0, 0], [0, 0], [0, 0]])
im2col("ic_i32", "f32", [8, 5, 4, 2], [0, 0], [0, 0], 8, 8, [[0, 0, 0, 0], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]],
       [[0, 0], [0, 0], [0, 0], [0, 0]], interleave=32, swizzle=1)
im2col("ic_estr", "f32", [4, 9, 4, 2], [0, 0], [0, 0], 4, 8, [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
       [[0, 0], [0, 0], [0, 0], [0, 0]], estr=[1, 2, 2, 1])
im2col("ic_ndhwc", "f32", [4, 4, 3, 3, 2], [0, 0, 0], [0, 0, 0], 4, 8, [[0, 0, 0, 0, 0], [0, 1, 0, 1, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 1]],
       [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]])

# .im2col_no_offs stores and reductions, without interleave and with
zero = [[0, 0, 0]] * 4
im2col("nooffs_nwc", "f32", [8, 9, 3], [0], [0], 8, 4, [[0, 0, 0], [0, 2, 0], [0, 7, 0], [4, 0, 1]], zero, interleave=0, d="J")
im2col("nooffs_nwc_box", "f32", [8, 9, 3], [-1], [-2], 4, 8, [[0, -1, 0], [4, 3, 0], [0, 5, 1], [0, 6, 2]], zero, interleave=0, d="J")
im2col("nooffs_nhwc", "f16", [16, 5, 4, 2], [0, 0], [0, 0], 16, 8, [[0, 0, 0, 0], [0, 3, 1, 0], [8, 2, 3, 1], [0, 4, 3, 1]], zero,
       interleave=0, d="J")
im2col("nooffs_nhwc_estr", "f32", [4, 6, 4, 2], [-1, 0], [0, -1], 4, 8, [[0, -1, 0, 0], [0, 1, 1, 0], [0, 3, 2, 1], [0, 0, 0, 1]],
       zero, interleave=0, estr=[1, 2, 1, 1], d="J")
im2col("nooffs_swz", "f32", [32, 9, 3], [0], [0], 32, 4, [[0, 0, 0], [0, 3, 0], [0, 7, 0], [0, 0, 2]], zero, interleave=0,
       swizzle=3, d="J")
im2col("nooffs_red", "f32", [8, 9, 3], [0], [0], 8, 4, [[0, 0, 0], [0, 2, 0], [0, 7, 0], [4, 0, 1]], zero, interleave=0, d="K")
im2col("nooffs_il", "f32", [4, 9, 3], [0], [0], 4, 4, [[0, 0, 0], [0, 2, 0], [1, 0, 0], [0, 0, 1]], zero, d="J")
im2col("nooffs_il_nhwc", "f32", [4, 5, 4, 2], [-1, 0], [0, 0], 4, 8, [[0, 0, 0, 0], [0, 1, 1, 0], [1, 0, 2, 0], [0, 0, 0, 1]],
       zero, d="J")

# stores and reductions
probe("st_r4", "S", "f32", [4, 6, 5, 3], [4, 4, 2, 2], coords=[[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 4, 2]])
probe("st_oob", "S", "f32", [4, 9, 5], [4, 4, 2], coords=[[0, 9, 0], [2, 8, 4], [0, 0, 5], [0, 3, 0]])
probe("red_add", "R", "f32", [4, 9, 5], [4, 4, 2], coords=[[0, 0, 0], [1, 0, 0], [0, 2, 3], [0, 0, 4]])
probe("red_i32", "R", "f32", [8, 9, 5], [8, 4, 2], interleave=32, swizzle=1, coords=[[0, 0, 0], [2, 0, 0], [0, 1, 1], [0, 8, 4]])
for b1 in (1, 4):
    probe(f"st_b1_{b1}", "S", "f32", [4, 9, 5], [4, b1, 2], coords=[[0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
probe("st_b0_8", "S", "f32", [4, 9, 5], [8, 4, 2], coords=[[0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 7, 3]])
probe("st_i32", "S", "f32", [8, 9, 5], [8, 4, 2], interleave=32, swizzle=1, coords=[[0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])


def arr(v, n):
    return "{" + ", ".join(str(x) for x in list(v) + [0] * (n - len(v))) + "}"


with open(os.path.join(HERE, "probes.inc"), "w") as f:
    f.write("// Generated by probes.py: {name, dir, type, elem bytes, interleave, swizzle, oob fill, rank, dims, strides,\n"
            "//   box, element strides, sets, coords, im2col lower, upper, channels, pixels, offsets}\n")
    for (name, d, code, size, il, sw, oob, rank, dims, strides, box, estr, coords, ic) in rows:
        cs = "{" + ", ".join(arr(c, 5) for c in coords) + "}"
        extra = ", {0, 0, 0}, {0, 0, 0}, 0, 0, {}"
        if ic:
            lower, upper, channels, pixels, offsets = ic
            extra = (f", {arr(lower, 3)}, {arr(upper, 3)}, {channels}, {pixels}, "
                     "{" + ", ".join(arr(o, 3) for o in offsets) + "}")
        f.write(f'{{"{name}", \'{d}\', {code}, {size}, {il}, {sw}, {oob}, {rank}, {arr(dims, 5)}, {arr(strides, 4)}, '
                f'{arr(box, 5)}, {arr(estr, 5)}, {len(coords)}, {cs}{extra}}},\n')
print(len(rows), "probes")
