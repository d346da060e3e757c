"""Writes the kernels of the warpgroup tensor-core recordings: wgmma_kernels.ptx and texts.inc.

One kernel per text: a wgmma.mma_async instruction with the shared-memory layouts of its
operands (PTX §9.7.15, 001_23fdd5978b24a3ed.txt; .sp: 002_fd7b654cd2816116.txt). A CTA is one
warpgroup (128 threads), or two (256: group wgmma_wg2, each warpgroup with its own operands). Each CTA copies its block of `in` into shared memory (every byte a
descriptor can reach comes from `in`, so the recording assumes no layout), loads its accumulator,
A (when from registers) and metadata registers from `in`, runs wgmma.fence, the one
wgmma.mma_async, commit_group and wait_group 0, and stores its accumulator registers to `out`.
The shared block holds A's region (elements of A's type) then B's (B's type), each 1024-aligned,
per warpgroup. texts.inc rows (read by record_wgmma.cu and tests/units/wgmma_hw_test.cpp):
  X(kernel, text, group, smem bytes, A region bytes, atype, btype, dtype, d words, a words, meta words,
    threads)
Run: python3 gen_kernels.py  (deterministic; the .ptx and .inc are committed)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "b1": 1}
K = {16: 16, 32: 8, 8: 32, 1: 256}  # dense K by element bits: 32 bytes of K
SWIZZLE = {"none": (0, 16), "sw32": (3, 32), "sw64": (2, 64), "sw128": (1, 128)}  # mode bits, row bytes

texts = []


def layout(mn, kbytes, bits, major, swz):
    """(LBO, SBO, footprint bytes) of a canonical layout (§9.7.15.5.1.2.1.3)."""
    _, row = SWIZZLE[swz]
    if major == "K":
        if swz == "none":
            chunks = max(1, kbytes // 16)
            return 128, chunks * 128, (mn + 7) // 8 * chunks * 128
        return 16, 8 * row, (mn + 7) // 8 * 8 * row
    t = 128 // bits  # MN-major: T elements per 16 bytes
    kgroups = max(1, kbytes * 8 // bits // 8)
    if swz == "none":
        lbo = (mn + t - 1) // t * 128
        return lbo, 128, kgroups * lbo
    w = row // 16
    atoms = (mn + w * t - 1) // (w * t)
    return 8 * row, atoms * 8 * row, kgroups * atoms * 8 * row


def add(group, d, a, n, a_src="smem", a_major="K", b_major="K", a_swz="sw128", b_swz="sw128", scale_d=1,
        scale_a=1, scale_b=1, sat=False, sparse=False, sel=0, a_off=0, base_offset=0, b_off=0, b_base_offset=0,
        wgs=1, pad=0):
    bits = BITS[a]
    k = K[bits] * (2 if sparse else 1)
    ka_bytes = 32  # A's K extent in bytes: 32 dense, and 32 for .sp too (K doubled, A compressed to K/2)
    shape = f"m64n{n}k{k}"
    mnem = "wgmma.mma_async.sp" if sparse else "wgmma.mma_async"
    if a == "b1":
        q = f"{mnem}.sync.aligned.{shape}.s32.b1.b1.and.popc"
    elif d == "s32":
        q = f"{mnem}.sync.aligned.{shape}{'.satfinite' if sat else ''}.s32.{a}.{a if a in ('s8', 'u8') else a}"
    else:
        q = f"{mnem}.sync.aligned.{shape}.{d}.{a}"
    texts.append(dict(group=group, q=q, d=d, a=a, n=n, k=k, bits=bits, a_src=a_src, a_major=a_major,
                      b_major=b_major, a_swz=a_swz, b_swz=b_swz, scale_d=scale_d, scale_a=scale_a,
                      scale_b=scale_b, sparse=sparse, sel=sel, a_off=a_off, base_offset=base_offset,
                      ka_bytes=ka_bytes, b_off=b_off, b_base_offset=b_base_offset, wgs=wgs, pad=pad))
    return texts[-1]


def with_b(t, b):  # the B type of a mixed pairing
    t["b"] = b
    if t["d"] == "s32" and t["a"] != "b1":
        t["q"] = t["q"].rsplit(".", 1)[0] + "." + b
    elif t["a"] not in ("b1",) and t["d"] != "s32":
        t["q"] += "." + b
    return t


def f(group, d, a, n, b=None, **kw):
    return with_b(add(group, d, a, n, **kw), b or a)


# ---- floating point: every type pairing, several N, A from shared memory and from registers
for n in (8, 64, 256):
    f("wgmma_float", "f32", "f16", n)
    f("wgmma_float", "f32", "bf16", n)
for n in (8, 64):
    f("wgmma_float", "f16", "f16", n)
    f("wgmma_float", "f32", "tf32", n)
f("wgmma_float", "f16", "f16", 24)
f("wgmma_float", "f32", "tf32", 136)
for a in ("f16", "bf16", "tf32"):
    f("wgmma_float", "f32", a, 64, a_src="reg")
f("wgmma_float", "f16", "f16", 16, a_src="reg")
for sd, sa, sb in ((0, 1, 1), (1, -1, 1), (1, 1, -1), (1, -1, -1)):
    f("wgmma_float", "f32", "f16", 16, scale_d=sd, scale_a=sa, scale_b=sb)
f("wgmma_float", "f32", "tf32", 16, a_src="reg", scale_a=-1)
for a in ("e4m3", "e5m2"):
    for b in ("e4m3", "e5m2"):
        for d in ("f32", "f16"):
            for n in (8, 64):
                f("wgmma_fp8", d, a, n, b)
f("wgmma_fp8", "f32", "e4m3", 256)
f("wgmma_fp8", "f32", "e4m3", 24, "e5m2", a_src="reg")
f("wgmma_fp8", "f16", "e5m2", 64, a_src="reg")
f("wgmma_fp8", "f32", "e4m3", 16, scale_a=-1, scale_b=-1)
f("wgmma_fp8", "f32", "e5m2", 16, scale_d=0)
# ---- integers and single bits
for a in ("s8", "u8"):
    for b in ("s8", "u8"):
        for sat in (False, True):
            for n in (8, 64):
                f("wgmma_int", "s32", a, n, b, sat=sat)
f("wgmma_int", "s32", "s8", 24, "u8", a_src="reg")
f("wgmma_int", "s32", "u8", 32, "u8", a_src="reg", sat=True)
f("wgmma_int", "s32", "s8", 16, scale_d=0)
for n in (8, 64, 256):
    f("wgmma_int", "s32", "b1", n)
f("wgmma_int", "s32", "b1", 48, a_src="reg")
# ---- shared-memory layouts: every swizzle, K-major and (16-bit) MN-major, for A and for B
for major in ("K", "MN"):
    for swz in ("none", "sw32", "sw64", "sw128"):
        f("wgmma_layout", "f32", "f16", 64, a_major=major, a_swz=swz)
        f("wgmma_layout", "f32", "bf16", 128, b_major=major, b_swz=swz)
for swz in ("none", "sw32", "sw64", "sw128"):
    f("wgmma_layout", "f32", "tf32", 32, a_swz=swz, b_swz=swz)
    f("wgmma_layout", "s32", "s8", 32, "s8", a_swz=swz, b_swz=swz)
    f("wgmma_layout", "f32", "e4m3", 16, a_swz=swz, b_swz=swz)
f("wgmma_layout", "f32", "f16", 64, a_src="reg", b_major="MN", b_swz="sw64")
f("wgmma_layout", "f32", "f16", 64, a_major="MN", b_major="MN", a_swz="sw32", b_swz="none")
f("wgmma_layout", "f32", "f16", 8, b_major="MN", b_swz="sw128")
# the K-steps inside a swizzled row (start address + 32, + 64, + 96 bytes) and an unaligned pattern
for swz, offs in (("sw64", (32,)), ("sw128", (32, 64, 96))):
    for off in offs:
        f("wgmma_layout", "f32", "f16", 32, a_swz=swz, b_swz=swz, a_off=off)
f("wgmma_layout", "f32", "f16", 32, a_off=384)
f("wgmma_layout", "f32", "f16", 32, a_off=384, base_offset=3)
# ---- structured sparse A (§9.7.15.6)
for a, d, n in (("f16", "f32", 64), ("f16", "f16", 8), ("bf16", "f32", 16), ("tf32", "f32", 64), ("e4m3", "f32", 64),
                ("e5m2", "f16", 16), ("s8", "s32", 64), ("u8", "s32", 16)):
    f("wgmma_sp", d, a, n, sparse=True)
f("wgmma_sp", "f32", "f16", 64, sparse=True, sel=1)
f("wgmma_sp", "f32", "tf32", 16, sparse=True, sel=1)
f("wgmma_sp", "f32", "bf16", 32, sparse=True, a_src="reg", sel=1)
f("wgmma_sp", "f32", "e4m3", 32, "e5m2", sparse=True, a_src="reg")
f("wgmma_sp", "s32", "s8", 32, "u8", sparse=True, sat=True)

# ---- two warpgroups per CTA (256 threads): warps 4-7 run the same instruction on their own
# operands (their own shared block, accumulators, A registers and metadata), so that fragments,
# metadata and selectors are indexed by the warp's place in its warpgroup, not in the CTA
W2 = dict(wgs=2)
f("wgmma_wg2", "f32", "f16", 64, **W2)
f("wgmma_wg2", "f32", "bf16", 32, a_src="reg", b_major="MN", b_swz="sw64", **W2)
f("wgmma_wg2", "f32", "f16", 16, a_major="MN", a_swz="sw128", b_major="MN", b_swz="none", **W2)
f("wgmma_wg2", "f32", "tf32", 16, a_src="reg", **W2)
f("wgmma_wg2", "f16", "e4m3", 24, "e5m2", a_src="reg", **W2)
f("wgmma_wg2", "s32", "s8", 32, "u8", sat=True, a_swz="sw32", b_swz="sw64", **W2)
f("wgmma_wg2", "s32", "b1", 16, a_src="reg", **W2)
f("wgmma_wg2", "f32", "f16", 32, sparse=True, sel=1, **W2)
f("wgmma_wg2", "f32", "tf32", 16, sparse=True, sel=1, a_src="reg", **W2)
f("wgmma_wg2", "s32", "s8", 16, sparse=True, a_src="reg", **W2)
# ---- the base offset (bits 49-51): matrices that start inside a swizzle pattern's repeat (1024,
# 512, 256 bytes for 128B, 64B, 32B), with the value the ISA gives ((start >> 7) & 7) and with
# others; for A and for B, K- and MN-major. The matrices start 1 KB into their region and the
# region has 1 KB to spare after them (pad), so every byte that any reading of the field could
# reach is still an input.
BO = dict(pad=1024)
for swz, cases in (("sw128", ((128, 1), (640, 5), (928, 7), (256, 0), (0, 2), (0, 7))),
                   ("sw64", ((128, 1), (256, 2), (384, 3), (256, 0), (0, 1))),
                   ("sw32", ((128, 1), (128, 0), (0, 1)))):
    for off, bo in cases:
        f("wgmma_base", "f32", "f16", 32, a_swz=swz, a_off=1024 + off, base_offset=bo, **BO)
for swz, off, bo in (("sw128", 384, 3), ("sw128", 768, 6), ("sw128", 768, 0), ("sw64", 256, 2)):
    f("wgmma_base", "f32", "f16", 32, b_swz=swz, b_off=1024 + off, b_base_offset=bo, **BO)
f("wgmma_base", "f32", "f16", 32, a_major="MN", a_swz="sw128", a_off=1024 + 512, base_offset=4, **BO)
f("wgmma_base", "f32", "bf16", 32, b_major="MN", b_swz="sw64", b_off=1024 + 128, b_base_offset=1, **BO)
f("wgmma_base", "f32", "f16", 32, a_swz="sw128", a_off=1024 + 384, base_offset=3, b_swz="sw32",
  b_off=1024 + 128, b_base_offset=1, **BO)
f("wgmma_base", "f32", "e4m3", 32, a_swz="sw128", a_off=1024 + 256, base_offset=2, **BO)
f("wgmma_base", "s32", "s8", 32, "s8", b_swz="sw32", b_off=1024 + 128, b_base_offset=1, **BO)
f("wgmma_base", "f32", "f16", 32, a_swz="none", a_off=1024 + 384, base_offset=3, **BO)  # no swizzle: field unused


def d_words(t):
    return t["n"] // 4 if t["d"] == "f16" else t["n"] // 2


def a_words(t):
    # A's 64 x 32 bytes (dense, or the compressed K/2 of .sp) over 128 threads: 4 registers
    return 4 if t["a_src"] == "reg" else 0


def text_of(t):
    """The text that names the recording: the instruction and its operand layouts."""
    a = "A=reg" if t["a_src"] == "reg" else f"A={t['a_major']}:{t['a_swz']}"
    if t["a_off"]:
        a += f"+{t['a_off']}"
    if t["base_offset"]:
        a += f":bo{t['base_offset']}"
    b = f"B={t['b_major']}:{t['b_swz']}"
    if t["b_off"]:
        b += f"+{t['b_off']}"
    if t["b_base_offset"]:
        b += f":bo{t['b_base_offset']}"
    s = f"{t['q']} {a} {b} scale-d={t['scale_d']}"
    if t["d"] != "s32":
        s += f" scale-a={t['scale_a']} scale-b={t['scale_b']}"
    if t["sparse"]:
        s += f" sel={t['sel']}"
    if t["wgs"] > 1:
        s += f" wg={t['wgs']}"
    return s


def kernel(idx, t):
    bits_a, bits_b = BITS[t["a"]], BITS[t["b"]]
    # regions: A then B, 1024-aligned; each large enough for its layout (plus any start offset)
    if t["a_src"] == "reg":
        a_bytes = 0
    else:
        lbo_a, sbo_a, foot_a = layout(64, t["ka_bytes"], bits_a, t["a_major"], t["a_swz"])
        a_bytes = (foot_a + t["a_off"] + t["pad"] + 1023) // 1024 * 1024
    lbo_b, sbo_b, foot_b = layout(t["n"], 32, bits_b, t["b_major"], t["b_swz"])
    b_bytes = (foot_b + t["b_off"] + t["pad"] + 1023) // 1024 * 1024
    block = a_bytes + b_bytes  # one warpgroup's operands; warpgroup g's lie at g * block
    threads = 128 * t["wgs"]
    smem = t["wgs"] * block
    if smem > 48 * 1024:
        raise SystemExit(f"{text_of(t)}: {smem} bytes of static shared memory")
    nd, na, nm = d_words(t), a_words(t), 1 if t["sparse"] else 0
    nin_thread = nd + na + nm
    win = smem // 4 + threads * nin_thread
    dk = "b32" if t["d"] != "f32" else "f32"
    out = [f".visible .entry k{idx}(.param .u64 pin, .param .u64 pout)", "{",
           "\t.reg .b32 %r<300>;", "\t.reg .f32 %f<300>;", "\t.reg .b64 %rd<32>;", "\t.reg .pred %p<4>;",
           f"\t.shared .align 1024 .b8 smem[{smem}];",
           "\tld.param.u64 %rd1, [pin];", "\tld.param.u64 %rd2, [pout];",
           "\tcvta.to.global.u64 %rd1, %rd1;", "\tcvta.to.global.u64 %rd2, %rd2;",
           "\tmov.u32 %r1, %tid.x;", "\tmov.u32 %r2, %ctaid.x;",
           f"\tmul.wide.u32 %rd3, %r2, {win * 4};", "\tadd.s64 %rd3, %rd1, %rd3;",  # the CTA's input
           f"\tmul.wide.u32 %rd4, %r2, {threads * nd * 4};", "\tadd.s64 %rd4, %rd2, %rd4;",
           f"\tmul.wide.u32 %rd5, %r1, {nd * 4};", "\tadd.s64 %rd4, %rd4, %rd5;",  # the thread's output
           "\tmov.u32 %r8, smem;", "\tmul.wide.u32 %rd6, %r1, 4;", "\tadd.s64 %rd6, %rd3, %rd6;",
           "\tshl.b32 %r9, %r1, 2;", "\tadd.u32 %r9, %r9, %r8;"]
    for i in range(smem // 4 // threads):  # word tid + threads i
        out += [f"\tld.global.b32 %r10, [%rd6+{i * threads * 4}];", f"\tst.shared.b32 [%r9+{i * threads * 4}], %r10;"]
    out += ["\tbar.sync 0;", "\tfence.proxy.async.shared::cta;",
            f"\tmul.wide.u32 %rd7, %r1, {nin_thread * 4};", "\tadd.s64 %rd7, %rd3, %rd7;",
            f"\tadd.s64 %rd7, %rd7, {smem};"]
    dregs = [f"%f{20 + i}" if dk == "f32" else f"%r{20 + i}" for i in range(nd)]
    aregs = [f"%r{160 + i}" for i in range(na)]
    off = 0
    for r in dregs:
        out.append(f"\tld.global.{dk} {r}, [%rd7+{off}];")
        off += 4
    for r in aregs:
        out.append(f"\tld.global.b32 {r}, [%rd7+{off}];")
        off += 4
    if nm:
        out.append(f"\tld.global.b32 %r170, [%rd7+{off}];")

    def desc(reg, rd, region_off, lbo, sbo, swz, base_offset):
        mode = SWIZZLE[swz][0]
        high = ((lbo >> 4) & 0x3FFF) << 16 | ((sbo >> 4) & 0x3FFF) << 32 | base_offset << 49 | mode << 62
        return [f"\tadd.u32 {reg}, %r8, {region_off};", f"\tshr.u32 {reg}, {reg}, 4;",
                f"\tand.b32 {reg}, {reg}, 16383;", f"\tcvt.u64.u32 {rd}, {reg};",
                f"\tor.b64 {rd}, {rd}, {high};"]

    if t["wgs"] > 1:  # this warpgroup's block
        out += ["\tshr.u32 %r13, %r1, 7;", f"\tmad.lo.u32 %r8, %r13, {block}, %r8;"]
    if t["a_src"] != "reg":
        out += desc("%r11", "%rd10", t["a_off"], lbo_a, sbo_a, t["a_swz"], t["base_offset"])
    out += desc("%r12", "%rd11", a_bytes + t["b_off"], lbo_b, sbo_b, t["b_swz"], t["b_base_offset"])
    out.append("\tsetp.eq.u32 %p1, %r1, %r1;" if t["scale_d"] else "\tsetp.ne.u32 %p1, %r1, %r1;")
    ops = ["{" + ", ".join(dregs) + "}", "{" + ", ".join(aregs) + "}" if t["a_src"] == "reg" else "%rd10", "%rd11"]
    if t["sparse"]:
        ops += ["%r170", str(t["sel"])]
    ops.append("%p1")
    if t["d"] != "s32":
        ops += [str(t["scale_a"]), str(t["scale_b"])]
        if t["a"] in ("f16", "bf16"):
            if t["a_src"] != "reg":
                ops.append("1" if t["a_major"] == "MN" else "0")
            ops.append("1" if t["b_major"] == "MN" else "0")
    out += ["\twgmma.fence.sync.aligned;", f"\t{t['q']} {', '.join(ops)};",
            "\twgmma.commit_group.sync.aligned;", "\twgmma.wait_group.sync.aligned 0;"]
    for i, r in enumerate(dregs):
        out.append(f"\tst.global.{dk} [%rd4+{4 * i}], {r};")
    out += ["\tret;", "}", ""]
    return "\n".join(out), smem, a_bytes, nd, na, nm, threads


def main():
    body = ["// Generated by gen_kernels.py: one kernel per warpgroup MMA text (texts.inc).",
            ".version 8.4", ".target sm_90a", ".address_size 64", ""]
    inc = ["// Generated by gen_kernels.py. X(kernel, text, group, smem bytes, A region bytes (per warpgroup),",
           "//   atype, btype, dtype, d words, a words, meta words (per thread), threads per CTA)"]
    unique = {}
    for t in texts:  # a layout text may repeat an arithmetic one: kept once, in its first group
        unique.setdefault(text_of(t), t)
    for i, (name, t) in enumerate(unique.items()):
        src, smem, a_bytes, nd, na, nm, threads = kernel(i, t)
        body.append(src)
        inc.append(f'X("k{i}", "{name}", "{t["group"]}", {smem}, {a_bytes}, "{t["a"]}", "{t["b"]}", "{t["d"]}", '
                   f'{nd}, {na}, {nm}, {threads})')
    with open(os.path.join(HERE, "wgmma_kernels.ptx"), "w") as fp:
        fp.write("\n".join(body))
    with open(os.path.join(HERE, "texts.inc"), "w") as fp:
        fp.write("\n".join(inc) + "\n")
    print(len(unique), "kernels")


main()
