"""Writes the kernels of the tensor-core recordings: mma_kernels.ptx and classes.inc.

One kernel per instruction text. Each thread loads its registers from `in`, runs the one
instruction and stores its result registers to `out`, so the recording and ptxvm see the same
register contents and no fragment layout is assumed here (PTX §9.7.14, 001_23fdd5978b24a3ed.txt).
Templates:
  R  registers -> instruction -> registers (mma, mma.sp, wmma.mma, movmatrix)
  L  a per-warp block of `in` copied to shared memory, per-lane addresses -> ldmatrix -> registers
  W  a per-warp block of `in` (global), wmma.load -> registers
  S  registers -> wmma.store / stmatrix -> a per-warp block of `out`
classes.inc rows (read by record_mma.cu and tests/sem/mma_hw_test.cpp):
  X(name, template, group, {operand word ranges: type, words}..., out words, block words)
Run: python3 gen_kernels.py  (deterministic; the .ptx and .inc are committed)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# per-thread register counts: (A, B, C/D) in 32-bit words per type
PER_B32 = {"f16": 2, "bf16": 2, "tf32": 1, "e4m3": 4, "e5m2": 4, "s8": 4, "u8": 4, "s4": 8, "u4": 8,
           "b1": 32, "f32": 1, "s32": 1}

classes = []  # dicts


def acc_regs(shape, t):
    m, n = {"m8n8": (8, 8), "m16n8": (16, 8)}[shape.split("k")[0]]
    elems = m * n // 32
    if shape.startswith("m8n8k4") and t in ("f16", "f32"):
        elems = 8  # four 8x8 products by quad-pairs (§9.7.14.5.1)
    if t == "f16":
        return elems // 2
    return elems


def in_regs(shape, which, t, sparse=False):
    m, n, k = [int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split()]
    if shape == "m8n8k4" and t == "f16":
        return 2
    rows = m if which == "a" else n
    elems = rows * k // 32
    if sparse and which == "a":
        elems //= 2
    if t == "f64":
        return elems
    return max(1, elems // PER_B32[t])


def mma(shape, d, a, b, c, layout="row.col", extra="", sparse=None):
    name = f"mma.sync.aligned.{shape}.{layout}{extra}.{d}.{a}.{b}.{c}"
    if sparse:
        name = f"mma.{sparse}.sync.aligned.{shape}.{layout}{extra}.{d}.{a}.{b}.{c}"
    classes.append(dict(name=name, tmpl="R", ops=[
        ("a", a, in_regs(shape, "a", a, bool(sparse))), ("b", b, in_regs(shape, "b", b)),
        ("c", c, acc_regs(shape, c))], d=(d, acc_regs(shape, d)), sparse=bool(sparse)))


# ---- half precision (§9.7.14.5.14)
for al in ("row", "col"):
    for bl in ("row", "col"):
        for d, c in (("f16", "f16"), ("f32", "f16"), ("f32", "f32")):
            mma("m8n8k4", d, "f16", "f16", c, f"{al}.{bl}")
for d, c in (("f16", "f16"), ("f32", "f32")):
    mma("m16n8k8", d, "f16", "f16", c)
for d, c in (("f16", "f16"), ("f32", "f32")):  # m16n8k16: .dtype = .ctype (ptxas)
    mma("m16n8k16", d, "f16", "f16", c)
# ---- alternate floating point
mma("m16n8k4", "f32", "tf32", "tf32", "f32")
mma("m16n8k8", "f32", "tf32", "tf32", "f32")
mma("m16n8k8", "f32", "bf16", "bf16", "f32")
mma("m16n8k16", "f32", "bf16", "bf16", "f32")
for shape in ("m16n8k16", "m16n8k32"):
    for a in ("e4m3", "e5m2"):
        for b in ("e4m3", "e5m2"):
            for dc in ("f16", "f32"):
                mma(shape, dc, a, b, dc)
# ---- double precision, every rounding modifier
for shape in ("m8n8k4", "m16n8k4", "m16n8k8", "m16n8k16"):
    for rnd in ("", ".rn", ".rz", ".rm", ".rp"):
        if rnd and shape != "m8n8k4" and rnd != ".rz":
            continue  # the rounding path is shared; one extra mode per larger shape
        mma(shape, "f64", "f64", "f64", "f64", extra=rnd)
# ---- integers
for shape, types in (("m8n8k16", "8"), ("m16n8k16", "8"), ("m16n8k32", "8"),
                     ("m8n8k32", "4"), ("m16n8k32", "4"), ("m16n8k64", "4")):
    for a in ("s", "u"):
        for b in ("s", "u"):
            for sat in ("", ".satfinite"):
                mma(shape, "s32", a + types, b + types, "s32", extra=sat)
# ---- single bit
for shape in ("m8n8k128", "m16n8k128", "m16n8k256"):
    for op in ("xor", "and"):
        classes.append(dict(
            name=f"mma.sync.aligned.{shape}.row.col.s32.b1.b1.s32.{op}.popc", tmpl="R",
            ops=[("a", "b1", in_regs(shape, "a", "b1")), ("b", "b1", in_regs(shape, "b", "b1")),
                 ("c", "s32", acc_regs(shape, "s32"))], d=("s32", acc_regs(shape, "s32")), sparse=False))
# ---- sparse A (§9.7.14.6.3), ordered metadata
for shape, t, dcs in (("m16n8k16", "f16", ("f16", "f32")), ("m16n8k32", "f16", ("f32",)),
                      ("m16n8k16", "bf16", ("f32",)), ("m16n8k32", "bf16", ("f32",)),
                      ("m16n8k8", "tf32", ("f32",)), ("m16n8k16", "tf32", ("f32",)),
                      ("m16n8k64", "e4m3", ("f32",)), ("m16n8k64", "e5m2", ("f32",))):
    for dc in dcs:
        mma(shape, dc, t, t, dc, sparse="sp::ordered_metadata")
for shape, t in (("m16n8k32", "s8"), ("m16n8k64", "s8"), ("m16n8k64", "s4"), ("m16n8k128", "u4")):
    mma(shape, "s32", t, t, "s32", sparse="sp::ordered_metadata")

# ---- wmma.mma (§9.7.14.4.5, 004_8b65a6cd58917981.txt): register-level arithmetic
WM = {"m16n16k16": (16, 16, 16), "m32n8k16": (32, 8, 16), "m8n32k16": (8, 32, 16),
      "m16n16k8": (16, 16, 8), "m8n8k4": (8, 8, 4), "m8n8k32": (8, 8, 32), "m8n8k128": (8, 8, 128)}


def wmma_regs(shape, frag, t):
    m, n, k = WM[shape]
    if t in ("f16", "bf16") and frag in "ab":
        return {"m16n16k16": 8, "m32n8k16": 8, "m8n32k16": 8}[shape] if t == "f16" else \
            {"m16n16k16": 4, "m32n8k16": 8 if frag == "a" else 2, "m8n32k16": 2 if frag == "a" else 8}[shape]
    if frag == "a":
        elems = m * k // 32
    elif frag == "b":
        elems = k * n // 32
    else:
        elems = m * n // 32
        return elems // 2 if t == "f16" else elems
    return elems if t == "f64" else max(1, elems // PER_B32[t])


def wmma_mma(shape, al, bl, d, a, b, c, extra=""):
    if a in ("f16",):
        name = f"wmma.mma.sync.aligned.{al}.{bl}.{shape}.{d}.{c}{extra}"
    elif a == "b1":
        name = f"wmma.mma.{extra}.sync.aligned.{al}.{bl}.{shape}.s32.b1.b1.s32"
    elif a == "f64":
        name = f"wmma.mma.sync.aligned.{al}.{bl}.{shape}{extra}.f64.f64.f64.f64"
    else:
        name = f"wmma.mma.sync.aligned.{al}.{bl}.{shape}.{d}.{a}.{b}.{c}{extra}"
    classes.append(dict(name=name, tmpl="R", ops=[
        ("a", a, wmma_regs(shape, "a", a)), ("b", b, wmma_regs(shape, "b", b)),
        ("c", c, wmma_regs(shape, "c", c))], d=(d, wmma_regs(shape, "c", d)), sparse=False))


for shape in ("m16n16k16", "m32n8k16", "m8n32k16"):
    for d, c in (("f16", "f16"), ("f32", "f16"), ("f16", "f32"), ("f32", "f32")):
        wmma_mma(shape, "row", "col", d, "f16", "f16", c)
    wmma_mma(shape, "row", "col", "f32", "bf16", "bf16", "f32")
    wmma_mma(shape, "row", "col", "s32", "s8", "s8", "s32", ".satfinite")
    wmma_mma(shape, "row", "col", "s32", "u8", "u8", "s32")
wmma_mma("m16n16k16", "col", "row", "f32", "f16", "f16", "f32")
wmma_mma("m16n16k8", "row", "col", "f32", "tf32", "tf32", "f32")
wmma_mma("m8n8k4", "row", "col", "f64", "f64", "f64", "f64")
wmma_mma("m8n8k4", "row", "col", "f64", "f64", "f64", "f64", ".rz")
wmma_mma("m8n8k32", "row", "col", "s32", "s4", "s4", "s32")
wmma_mma("m8n8k128", "row", "col", "s32", "b1", "b1", "s32", "xor.popc")
wmma_mma("m8n8k128", "row", "col", "s32", "b1", "b1", "s32", "and.popc")

# ---- register layouts of wmma.load / wmma.store: element indices in, registers out
def wmma_ls(shape, frag, layout, t, ctype=None):
    m, n, k = WM[shape]
    rows, cols = {"a": (m, k), "b": (k, n), "c": (m, n), "d": (m, n)}[frag]
    ld = rows if layout == "col" else cols
    words = wmma_regs(shape, "c" if frag == "d" else frag, t)
    if frag == "d":
        name = f"wmma.store.d.sync.aligned.{layout}.{shape}.global.{t}"
        classes.append(dict(name=name, tmpl="S", ops=[("d", t, words)], d=("b32", 0), ld=ld,
                            block=block_words(rows, cols, t), sparse=False))
    else:
        name = f"wmma.load.{frag}.sync.aligned.{layout}.{shape}.global.{t}"
        classes.append(dict(name=name, tmpl="W", ops=[], d=(t if t in ("f64", "f32") else "b32", words), ld=ld,
                            block=block_words(rows, cols, t), sparse=False))


def block_words(rows, cols, t):
    bits = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s32": 32, "f64": 64, "s8": 8, "u8": 8,
            "s4": 4, "u4": 4, "b1": 1}[t]
    return rows * cols * bits // 32


for shape in ("m16n16k16", "m32n8k16", "m8n32k16"):
    for lay in ("row", "col"):
        for frag, t in (("a", "f16"), ("b", "f16"), ("c", "f16"), ("c", "f32"), ("a", "bf16"),
                        ("b", "bf16"), ("a", "s8"), ("b", "u8"), ("c", "s32"), ("d", "f16"),
                        ("d", "f32"), ("d", "s32")):
            wmma_ls(shape, frag, lay, t)
for lay in ("row", "col"):
    for frag, t in (("a", "tf32"), ("b", "tf32"), ("c", "f32"), ("d", "f32")):
        wmma_ls("m16n16k8", frag, lay, t)
    for frag in ("a", "b", "c", "d"):
        wmma_ls("m8n8k4", frag, lay, "f64")
wmma_ls("m8n8k32", "a", "row", "s4"); wmma_ls("m8n8k32", "b", "col", "u4")
wmma_ls("m8n8k128", "a", "row", "b1"); wmma_ls("m8n8k128", "b", "col", "b1")
for lay in ("row", "col"):
    wmma_ls("m8n8k32", "c", lay, "s32"); wmma_ls("m8n8k32", "d", lay, "s32")

# ---- ldmatrix / stmatrix / movmatrix (§9.7.14.5.15-17)
for num, regs in ((".x1", 1), (".x2", 2), (".x4", 4)):
    for trans in ("", ".trans"):
        classes.append(dict(name=f"ldmatrix.sync.aligned.m8n8{num}{trans}.shared.b16", tmpl="L",
                            ops=[("o", "b32", 1)], d=("b32", regs), block=1024, sparse=False))
        classes.append(dict(name=f"stmatrix.sync.aligned.m8n8{num}{trans}.shared.b16", tmpl="S",
                            ops=[("o", "b32", 1), ("d", "b32", regs)], d=("b32", 0), block=1024,
                            sparse=False))
classes.append(dict(name="movmatrix.sync.aligned.m8n8.trans.b16", tmpl="R",
                    ops=[("a", "b32", 1)], d=("b32", 1), sparse=False))


# ---- PTX
def reg_kind(t):
    return {"f32": "f32", "f64": "f64"}.get(t, "b32")


def kernel(idx, c):
    out = [f".visible .entry k{idx}(.param .u64 pin, .param .u64 pout)", "{",
           "\t.reg .b32 %r<300>;", "\t.reg .f32 %f<300>;", "\t.reg .f64 %fd<300>;",
           "\t.reg .b64 %rd<32>;", "\t.reg .pred %p<4>;"]
    if c["tmpl"] in ("L", "S") and c["name"].split(".")[0] in ("ldmatrix", "stmatrix"):
        out.append("\t.shared .align 16 .b8 smem[16384];")
    out += ["\tld.param.u64 %rd1, [pin];", "\tld.param.u64 %rd2, [pout];",
            "\tcvta.to.global.u64 %rd1, %rd1;", "\tcvta.to.global.u64 %rd2, %rd2;",
            "\tmov.u32 %r1, %tid.x;", "\tmov.u32 %r2, %ctaid.x;", "\tmov.u32 %r3, %ntid.x;",
            "\tmad.lo.u32 %r4, %r2, %r3, %r1;",  # global thread
            "\tshr.u32 %r5, %r4, 5;", "\tand.b32 %r6, %r1, 31;", "\tshr.u32 %r7, %r1, 5;"]
    nin = sum(w * (2 if t == "f64" else 1) for _, t, w in c["ops"]) + (1 if c.get("sparse") else 0)
    dt, dn = c["d"]
    nout = dn * (2 if dt == "f64" else 1)
    blk = c.get("block", 0)
    # per-warp input: [block words][32 x nin words]; output: [block words][32 x nout words]
    win = blk + 32 * nin
    wout = (blk if c["tmpl"] == "S" else 0) + 32 * nout
    out += [f"\tmul.wide.u32 %rd3, %r5, {win * 4};", "\tadd.s64 %rd3, %rd1, %rd3;",  # warp in
            f"\tmul.wide.u32 %rd4, %r5, {wout * 4};", "\tadd.s64 %rd4, %rd2, %rd4;",  # warp out
            f"\tmul.wide.u32 %rd5, %r6, {nin * 4};", f"\tadd.s64 %rd5, %rd3, %rd5;",
            f"\tadd.s64 %rd5, %rd5, {blk * 4};",  # this lane's input words
            f"\tmul.wide.u32 %rd6, %r6, {nout * 4};", "\tadd.s64 %rd6, %rd4, %rd6;"]
    if c["tmpl"] == "S":
        out.append(f"\tadd.s64 %rd6, %rd6, {blk * 4};")
    regs = {}
    off = 0
    counters = {"b32": 10, "f32": 10, "f64": 10}
    prefix = {"b32": "%r", "f32": "%f", "f64": "%fd"}

    def take(kind, n):
        base = counters[kind]
        counters[kind] += n
        return [f"{prefix[kind]}{base + i}" for i in range(n)]

    for name, t, w in c["ops"]:
        kind = reg_kind(t)
        rs = take(kind, w)
        regs[name] = rs
        for r in rs:
            width = 8 if kind == "f64" else 4
            if off % width:
                raise SystemExit("misaligned f64 operand in " + c["name"])
            out.append(f"\tld.global.{'f64' if kind == 'f64' else kind if kind == 'f32' else 'b32'} {r}, [%rd5+{off}];")
            off += width
    if c.get("sparse"):
        regs["e"] = take("b32", 1)
        out.append(f"\tld.global.b32 {regs['e'][0]}, [%rd5+{off}];")
    dregs = take(reg_kind(dt), dn) if dn else []
    nm = c["name"]
    if c["tmpl"] in ("L", "S") and nm.startswith(("ldmatrix", "stmatrix")):
        # copy the warp's block to this warp's slice of shared memory (4 KB per warp)
        out += ["\tmov.u32 %r8, smem;", "\tshl.b32 %r9, %r7, 12;", "\tadd.u32 %r8, %r8, %r9;"]
        if nm.startswith("ldmatrix"):
            for i in range(blk // 32):
                out += [f"\tld.global.b32 %r20, [%rd3+{i * 128}];".replace("+", "+") if False else
                        f"\tmul.wide.u32 %rd7, %r6, 4;", "\tadd.s64 %rd7, %rd3, %rd7;",
                        f"\tld.global.b32 %r20, [%rd7+{i * 128}];",
                        "\tshl.b32 %r21, %r6, 2;", "\tadd.u32 %r21, %r21, %r8;",
                        f"\tst.shared.b32 [%r21+{i * 128}], %r20;"]
        else:
            for i in range(blk // 32):
                out += ["\tshl.b32 %r21, %r6, 2;", "\tadd.u32 %r21, %r21, %r8;",
                        f"\tst.shared.b32 [%r21+{i * 128}], %r7;"]
        out.append("\tbar.sync 0;")
        out += [f"\tadd.u32 %r22, %r8, {regs['o'][0]};"]
        if nm.startswith("ldmatrix"):
            out.append(f"\t{nm} {{{', '.join(dregs)}}}, [%r22];")
        else:
            out.append(f"\t{nm} [%r22], {{{', '.join(regs['d'])}}};")
            out.append("\tbar.sync 0;")
            for i in range(blk // 32):
                out += ["\tshl.b32 %r21, %r6, 2;", "\tadd.u32 %r21, %r21, %r8;",
                        f"\tld.shared.b32 %r20, [%r21+{i * 128}];",
                        "\tmul.wide.u32 %rd7, %r6, 4;", "\tadd.s64 %rd7, %rd4, %rd7;",
                        f"\tst.global.b32 [%rd7+{i * 128}], %r20;"]
    elif c["tmpl"] == "W":
        out.append(f"\t{nm} {{{', '.join(dregs)}}}, [%rd3], {c['ld']};")
    elif c["tmpl"] == "S":
        # clear the block, then store the fragment into it
        out += ["\tmov.u32 %r20, 0;"]
        for i in range(blk // 32):
            out += ["\tmul.wide.u32 %rd7, %r6, 4;", "\tadd.s64 %rd7, %rd4, %rd7;",
                    f"\tst.global.b32 [%rd7+{i * 128}], %r20;"]
        out.append("\tbar.warp.sync -1;")
        out.append(f"\t{nm} [%rd4], {{{', '.join(regs['d'])}}}, {c['ld']};")
    else:
        def vec(rs):
            return rs[0] if nm.startswith("movmatrix") else f"{{{', '.join(rs)}}}"
        parts = [vec(dregs)] + [vec(regs[n]) for n, _, _ in c["ops"]]
        if c.get("sparse"):
            parts += [regs["e"][0], "0"]
        out.append(f"\t{nm} {', '.join(parts)};")
    o = 0
    for r in dregs:
        kind = reg_kind(dt)
        out.append(f"\tst.global.{'f64' if kind == 'f64' else kind if kind == 'f32' else 'b32'} [%rd6+{o}], {r};")
        o += 8 if kind == "f64" else 4
    out += ["\tret;", "}", ""]
    return "\n".join(out), nin, nout, win, wout


def main():
    body = ["// Generated by gen_kernels.py: one kernel per tensor-core instruction text (classes.inc).",
            ".version 8.7", ".target sm_90a", ".address_size 64", ""]
    inc = ["// Generated by gen_kernels.py. X(kernel, text, template, in words/lane, out words/lane,",
           "//   block words/warp, operands \"name:type:words ...\")"]
    for i, c in enumerate(classes):
        text, nin, nout, win, wout = kernel(i, c)
        body.append(text)
        ops = " ".join(f"{n}:{t}:{w * (2 if t == 'f64' else 1)}" for n, t, w in c["ops"])
        if c.get("sparse"):
            ops += " e:meta:1"
        inc.append(f'X("k{i}", "{c["name"]}", \'{c["tmpl"]}\', {nin}, {nout}, {c.get("block", 0)}, "{ops}", "{c["d"][0]}")')
    with open(os.path.join(HERE, "mma_kernels.ptx"), "w") as f:
        f.write("\n".join(body))
    with open(os.path.join(HERE, "classes.inc"), "w") as f:
        f.write("\n".join(inc) + "\n")
    print(len(classes), "kernels")


main()
