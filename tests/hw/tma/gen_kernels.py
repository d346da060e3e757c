"""Writes the kernels of the TMA recordings: tma_kernels.ptx and texts.inc.

One kernel per text: a tensor map (PTX §5.5.8) and one cp.async.bulk.tensor in .tile mode, or
.im2col ("I", §5.5.4, with im2col offsets per coordinate set) (§9.7.9.25.5.2), run once per
coordinate set of the text. A load ("L") fills its shared buffer
with 0xa5, loads the box through an mbarrier (expect_tx of the box's bytes, a bounded wait) and
copies the whole buffer and a completion flag to `out`. A store ("S") fills its buffer from `in`
and stores the box to the tensor ("R": reduces it into the tensor), whose whole global image the
recorder then reads back. The
recorder builds each map with cuTensorMapEncodeTiled, the replay (tests/units/tma_hw_test.cpp)
with ptxvm's encoder (src/units/tma/tensor_map.h), from the same fields.
texts.inc rows: {kernel, name, dir, reduction op, type, elem bytes, rank, {dims}, {strides}, {box},
  {element strides}, swizzle, oob fill, coordinate sets, {{coords}...}, buffer bytes, box bytes,
  region bytes}
Run: python3 gen_kernels.py  (deterministic; the .ptx and .inc are committed)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# CUtensorMapDataType values and element bytes
TYPES = {"u8": (0, 1), "u16": (1, 2), "u32": (2, 4), "s32": (3, 4), "u64": (4, 8), "s64": (5, 8), "f16": (6, 2),
         "f32": (7, 4), "f64": (8, 8), "bf16": (9, 2), "tf32": (11, 4)}
SWIZZLE = {"none": 0, "32B": 1, "64B": 2, "128B": 3}
INTERLEAVE = {"none": 0, "16B": 1, "32B": 2}

texts = []


def text(name, d, t, dims, box, swizzle="none", oob=0, estrides=None, pad=0, coords=None, op="", im2col=None,
         interleave="none"):
    code, size = TYPES[t]
    rank = len(dims)
    estrides = estrides or [1] * rank
    strides, s = [], dims[0] * size
    row = 32 if interleave == "32B" else 16
    for i in range(1, rank):
        s = (s + pad + row - 1) // row * row  # rows padded to 16 bytes (32 for a 32-byte interleave), and `pad` more
        strides.append(s)
        s *= dims[i]
    counts = [(b + e - 1) // e for b, e in zip(box, estrides)]
    box_bytes = size
    for c in counts:
        box_bytes *= c
    im2col = im2col or {}
    if im2col:
        box_bytes = size * im2col["channels"] * im2col["pixels"]
    if coords is None:  # inside, before the start, across the end, far outside
        coords = [[0] * rank, [-(b // 2) for b in box], [dm - b // 2 for dm, b in zip(dims, box)],
                  [dm + 3 for dm in dims]]
    texts.append(dict(name=name, d=d, op=op, im2col=im2col, t=t, code=code, size=size, rank=rank, dims=dims, strides=strides, box=box,
                      estrides=estrides, swizzle=SWIZZLE[swizzle], oob=oob, interleave=INTERLEAVE[interleave], coords=coords, buffer=max(s, 16),
                      box_bytes=box_bytes))


# loads: every type, rank 1..5, every swizzle, the NaN fill, element strides
text("f32_2d_128B", "L", "f32", [100, 37], [32, 8], "128B")
text("f32_2d_none", "L", "f32", [100, 37], [32, 8], pad=64)
text("f32_2d_nan", "L", "f32", [100, 37], [16, 8], "64B", oob=1)
text("f16_2d_128B", "L", "f16", [200, 50], [64, 8], "128B")
text("f16_2d_64B", "L", "f16", [200, 50], [32, 16], "64B")
text("f16_2d_32B", "L", "f16", [200, 50], [16, 16], "32B", oob=1)
text("bf16_2d_nan", "L", "bf16", [72, 40], [64, 4], "128B", oob=1)
text("u8_2d_128B", "L", "u8", [300, 20], [128, 4], "128B")
text("u16_1d", "L", "u16", [1000], [256])
text("u32_3d", "L", "u32", [40, 6, 9], [16, 4, 4], "64B")
text("s32_4d", "L", "s32", [24, 5, 4, 3], [8, 2, 2, 2])
text("u64_5d", "L", "u64", [6, 4, 3, 3, 2], [4, 2, 2, 2, 2], "32B")
text("f64_2d_nan", "L", "f64", [30, 30], [16, 4], "128B", oob=1)
text("s64_2d", "L", "s64", [30, 30], [2, 8], "none")
text("f32_3d_estride", "L", "f32", [64, 30, 10], [16, 8, 4], "64B", estrides=[1, 2, 3])
text("f16_2d_estride", "L", "f16", [128, 64], [64, 16], "128B", estrides=[1, 4])
text("tf32_2d", "L", "tf32", [50, 50], [32, 4], "128B", oob=1)
# stores: clipped at every edge
text("st_f32_2d_128B", "S", "f32", [100, 37], [32, 8], "128B")
text("st_f16_2d_none", "S", "f16", [70, 30], [32, 16], pad=32)
text("st_u8_3d_64B", "S", "u8", [90, 10, 5], [64, 4, 2], "64B")
text("st_u64_1d", "S", "u64", [100], [32])
text("st_bf16_4d_32B", "S", "bf16", [40, 6, 5, 3], [16, 4, 2, 2], "32B")
# reductions (cp.reduce.async.bulk.tensor): a store that combines, the element type the map's
text("red_add_f32_2d", "R", "f32", [100, 37], [32, 8], "128B", op="add")
text("red_add_f16_2d", "R", "f16", [70, 30], [32, 16], "64B", op="add")
text("red_min_bf16_2d", "R", "bf16", [72, 20], [64, 4], "128B", op="min")
text("red_max_s32_3d", "R", "s32", [40, 6, 9], [16, 4, 4], op="max")
text("red_inc_u32_2d", "R", "u32", [64, 16], [16, 8], "64B", op="inc")
text("red_and_u64_1d", "R", "u64", [100], [32], op="and")
text("red_add_f64_2d", "R", "f64", [30, 30], [16, 4], "128B", op="add")
text("red_min_s64_2d", "R", "s64", [30, 30], [2, 8], op="min")
# im2col loads (§5.5.4): NWC, NHWC, NDHWC tensors; coordinates (c, spatial..., n) and offsets per set
def conv(name, t, dims, channels, pixels, lower, upper, sets, swizzle="none", estrides=None, oob=0):
    text(name, "I", t, dims, [1] * len(dims), swizzle, oob=oob, estrides=estrides,
         coords=[c for c, _ in sets],
         im2col=dict(channels=channels, pixels=pixels, lower=lower, upper=upper, offsets=[o for _, o in sets]))
conv("im2col_nhwc_same", "f16", [64, 9, 14, 3], 8, 64, [-1, -1], [-1, -1],
     [([0, 7, 4, 0], [0, 0]), ([8, -1, -1, 0], [1, 1]), ([16, 5, 12, 1], [2, 2]), ([56, 0, 0, 2], [0, 2])], "none")
conv("im2col_nhwc_valid", "f16", [64, 9, 14, 2], 32, 32, [0, 0], [-2, -2],
     [([0, 0, 0, 0], [2, 2]), ([32, 6, 11, 0], [0, 1]), ([0, 3, 5, 1], [1, 0]), ([32, 5, 10, 1], [2, 2])], "64B")
conv("im2col_nhwc_stride2", "f32", [32, 8, 14, 2], 16, 32, [-1, -1], [-1, -1],
     [([0, -1, -1, 0], [1, 1]), ([16, 5, 7, 0], [0, 0]), ([0, 3, 11, 1], [2, 1]), ([16, 1, 3, 1], [1, 2])], "64B",
     estrides=[1, 2, 2, 1])
conv("im2col_nwc", "bf16", [64, 40, 3], 64, 48, [-2], [-1],
     [([0, -2, 0], [0]), ([0, 30, 1], [3]), ([0, 37, 2], [1]), ([0, 10, 0], [2])], "128B", oob=1)
conv("im2col_ndhwc", "u8", [32, 6, 5, 4, 2], 32, 40, [-1, -1, 0], [-1, -1, -1],
     [([0, 0, 0, 0, 0], [0, 0, 0]), ([0, 4, 3, 2, 0], [1, 1, 1]), ([0, -1, -1, 1, 1], [2, 2, 1]), ([0, 2, 1, 0, 1], [0, 1, 0])],
     "32B")

# interleaved layouts (§5.5.6: NC/8HWC8 in 16-byte slices, NC/16HWC16 in 32-byte ones), rank 3 to 5. The
# f32 and u32 texts' random words are unique, so each shared-memory word names the tensor element it
# came from; the kernels also record the raw mbarrier word (its pending transaction count).
text("il16_f32_slice", "L", "f32", [4, 9, 5], [4, 4, 2], interleave="16B")
text("il16_f32_half", "L", "f32", [4, 9, 5], [2, 4, 2], interleave="16B")
text("il16_f32_wide", "L", "f32", [12, 9, 5], [8, 4, 2], interleave="16B")
text("il16_f32_odd", "L", "f32", [6, 7, 5], [3, 5, 2], interleave="16B")
text("il16_f32_estride", "L", "f32", [8, 9, 5], [8, 4, 2], estrides=[2, 1, 1], interleave="16B")
text("il16_f32_estride_y", "L", "f32", [4, 9, 5], [4, 6, 2], estrides=[1, 2, 1], interleave="16B")
text("il16_f32_32B", "L", "f32", [4, 9, 5], [4, 8, 2], "32B", interleave="16B")
text("il16_f32_64B", "L", "f32", [4, 9, 5], [4, 8, 2], "64B", interleave="16B")
text("il16_f32_128B", "L", "f32", [4, 17, 5], [4, 16, 2], "128B", interleave="16B")
text("il16_u32_4d", "L", "u32", [4, 6, 5, 3], [4, 4, 2, 2], interleave="16B")
text("il16_f16_5d_nan", "L", "f16", [8, 5, 4, 3, 2], [8, 4, 2, 2, 2], oob=1, interleave="16B")
text("il16_u8_3d", "L", "u8", [16, 9, 5], [16, 4, 2], interleave="16B")
text("il16_f64_3d", "L", "f64", [2, 9, 5], [2, 4, 2], "64B", interleave="16B")
text("il32_f32_slice", "L", "f32", [8, 9, 5], [8, 4, 2], "32B", interleave="32B")
text("il32_f32_half", "L", "f32", [8, 9, 5], [4, 4, 2], "32B", interleave="32B")
text("il32_f32_noswizzle", "L", "f32", [8, 9, 5], [8, 4, 2], interleave="32B")
text("il32_f32_wide", "L", "f32", [24, 9, 5], [16, 4, 2], "32B", interleave="32B")
text("il32_u8_3d", "L", "u8", [32, 9, 5], [32, 4, 2], "32B", interleave="32B")
text("il32_u32_4d_estride", "L", "u32", [8, 6, 5, 3], [8, 4, 2, 2], "32B", estrides=[1, 2, 1, 1], interleave="32B")
text("st_il16_f32_3d", "S", "f32", [4, 9, 5], [4, 4, 2], interleave="16B")
text("st_il16_f32_wide", "S", "f32", [12, 9, 5], [8, 4, 2], "64B", interleave="16B")
text("st_il32_f32_3d", "S", "f32", [8, 9, 5], [8, 4, 2], "32B", interleave="32B")
text("red_il16_add_f32", "R", "f32", [4, 9, 5], [4, 4, 2], op="add", interleave="16B")


def kernel(idx, t):
    r = t["rank"]
    spare = 4 if t["interleave"] else 2  # an interleaved copy may move more than the box
    region = (spare * t["box_bytes"] + 1023) // 1024 * 1024  # the box and what follows it
    coords = ", ".join(f"%r{10 + i}" for i in range(r))
    out = [f".visible .entry k{idx}(.param .align 64 .b8 tmap[128], .param .u64 pin, .param .u64 pout, "
           ".param .u32 c0, .param .u32 c1, .param .u32 c2, .param .u32 c3, .param .u32 c4, "
           ".param .u16 o0, .param .u16 o1, .param .u16 o2)", "{",
           "\t.reg .b16 %rs<4>;", "\t.reg .b32 %r<40>;", "\t.reg .b64 %rd<20>;", "\t.reg .pred %p<4>;",
           f"\t.shared .align 1024 .b8 buf[{region}];", "\t.shared .align 8 .b64 bar;",
           "\tld.param.u64 %rd3, [pin];", "\tld.param.u64 %rd4, [pout];",
           "\tcvta.to.global.u64 %rd3, %rd3;", "\tcvta.to.global.u64 %rd4, %rd4;",
           "\tmov.u32 %r1, %tid.x;", "\tsetp.eq.u32 %p1, %r1, 0;", "\tmov.u32 %r2, buf;",
           "\tmov.b64 %rd1, tmap;", "\tcvta.param.u64 %rd2, %rd1;"]
    out += [f"\tld.param.u32 %r{10 + i}, [c{i}];" for i in range(r)]
    # fill the buffer: 0xa5 for a load, `in` for a store
    out += ["\tmov.u32 %r3, %r1;", "FILL:", "\tshl.b32 %r4, %r3, 2;", "\tadd.u32 %r5, %r2, %r4;"]
    if t["d"] in ("L", "I"):
        out += ["\tst.shared.u32 [%r5], 0xa5a5a5a5;"]
    elif t["op"] == "inc":  # counters the increments wrap at
        out += ["\tcvt.u64.u32 %rd5, %r4;", "\tadd.s64 %rd6, %rd3, %rd5;", "\tld.global.u32 %r6, [%rd6];",
                "\tand.b32 %r6, %r6, 0xffff;", "\tst.shared.u32 [%r5], %r6;"]
    else:
        out += ["\tcvt.u64.u32 %rd5, %r4;", "\tadd.s64 %rd6, %rd3, %rd5;", "\tld.global.u32 %r6, [%rd6];",
                "\tst.shared.u32 [%r5], %r6;"]
    out += ["\tadd.u32 %r3, %r3, 128;", f"\tsetp.lt.u32 %p2, %r3, {region // 4};", "\t@%p2 bra FILL;",
            "\t@%p1 mbarrier.init.shared.b64 [bar], 1;", "\tfence.mbarrier_init.release.cluster;",
            "\tfence.proxy.async.shared::cta;", "\tbar.sync 0;"]
    if t["d"] in ("L", "I"):
        if t["d"] == "I":
            offs = ", ".join(f"%rs{i}" for i in range(r - 2))
            out += [f"\tld.param.u16 %rs{i}, [o{i}];" for i in range(r - 2)]
            copy = (f"\t@%p1 cp.async.bulk.tensor.{r}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
                    f"[buf], [%rd2, {{{coords}}}], [bar], {{{offs}}};")
        else:
            copy = (f"\t@%p1 cp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                    f"[buf], [%rd2, {{{coords}}}], [bar];")
        out += [f"\t@%p1 mbarrier.arrive.expect_tx.shared.b64 _, [bar], {t['box_bytes']};", copy,
                "\tmov.u32 %r7, 0;", "WAIT:", "\tmbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;",
                "\t@%p3 bra DONE;", "\tadd.u32 %r7, %r7, 1;", "\tsetp.lt.u32 %p2, %r7, 1000000;", "\t@%p2 bra WAIT;",
                "DONE:", "\tselp.u32 %r8, 1, 0, %p3;", f"\t@%p1 st.global.u32 [%rd4+{region}], %r8;"]
        if t["interleave"]:
            out += ["\tld.shared.v2.u32 {%r9, %r10}, [bar];", f"\t@%p1 st.global.u32 [%rd4+{region + 4}], %r9;",
                    f"\t@%p1 st.global.u32 [%rd4+{region + 8}], %r10;"]
        out += ["\tmov.u32 %r3, %r1;", "COPY:", "\tshl.b32 %r4, %r3, 2;", "\tadd.u32 %r5, %r2, %r4;",
                "\tld.shared.u32 %r6, [%r5];", "\tcvt.u64.u32 %rd5, %r4;", "\tadd.s64 %rd6, %rd4, %rd5;",
                "\tst.global.u32 [%rd6], %r6;", "\tadd.u32 %r3, %r3, 128;", f"\tsetp.lt.u32 %p2, %r3, {region // 4};",
                "\t@%p2 bra COPY;"]
    else:
        copy = f"cp.reduce.async.bulk.tensor.{r}d.global.shared::cta.{t['op']}" if t["op"] else f"cp.async.bulk.tensor.{r}d.global.shared::cta"
        out += [f"\t@%p1 {copy}.tile.bulk_group [%rd2, {{{coords}}}], [buf];",
                "\t@%p1 cp.async.bulk.commit_group;", "\t@%p1 cp.async.bulk.wait_group 0;"]
    out += ["\tret;", "}", ""]
    return "\n".join(out), region


def arr(v, n):
    v = list(v) + [0] * (n - len(v))
    return "{" + ", ".join(str(x) for x in v) + "}"


def main():
    body = ["// Generated by gen_kernels.py: one kernel per TMA text (texts.inc).", ".version 8.0", ".target sm_90a",
            ".address_size 64", ""]
    inc = ["// Generated by gen_kernels.py: {kernel, name, dir, op, type, elem bytes, rank, dims, strides, box,",
           "//   element strides, swizzle, oob, interleave, coordinate sets, coords, buffer bytes, box bytes, region bytes,",
           "//   im2col lower corner, upper corner, channels, pixels, offsets per set}"]
    for i, t in enumerate(texts):
        src, region = kernel(i, t)
        body.append(src)
        coords = "{" + ", ".join(arr(c, 5) for c in t["coords"]) + "}"
        im = t["im2col"]
        im2 = (f'{arr(im.get("lower", []), 3)}, {arr(im.get("upper", []), 3)}, {im.get("channels", 0)}, {im.get("pixels", 0)}, '
               "{" + ", ".join(arr(o, 3) for o in (im.get("offsets") or [[0, 0, 0]] * 4)) + "}")
        inc.append(f'{{"k{i}", "{t["name"]}", \'{t["d"]}\', "{t["op"]}", {t["code"]}, {t["size"]}, {t["rank"]}, {arr(t["dims"], 5)}, '
                   f'{arr(t["strides"], 4)}, {arr(t["box"], 5)}, {arr(t["estrides"], 5)}, {t["swizzle"]}, {t["oob"]}, {t["interleave"]}, '
                   f'{len(t["coords"])}, {coords}, {t["buffer"]}, {t["box_bytes"]}, {region}, {im2}}},')
    with open(os.path.join(HERE, "tma_kernels.ptx"), "w") as f:
        f.write("\n".join(body))
    with open(os.path.join(HERE, "texts.inc"), "w") as f:
        f.write("\n".join(inc) + "\n")
    print(len(texts), "kernels")


main()
