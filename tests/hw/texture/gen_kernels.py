"""Writes the kernels of the texture and surface recordings: texture_kernels.ptx and kernels.inc.

One kernel per instruction form (PTX §9.7.10.3-§9.7.10.6, §9.7.11.1-§9.7.11.4), all with the
parameters (.param .u64 handle, .param .u64 coords, .param .u64 out, .param .u32 n). Thread i < n
(i = ctaid.x * ntid.x + tid.x) reads the 16 words of lookup i at coords + 64 i (the layout is in
cases.h), runs the one instruction on the texture or surface object `handle` and writes its
results as 32-bit words to out + 4 i W, W the form's result words: a .v4 tex/tld4 result's four
registers (then the destination predicate p, 1 or 0, where the form has it), a .f16 result
zero-extended, a .b64 element as two words (low first), a .b8/.b16 one zero-extended; a query's
values in the order of its list; stores and reductions write nothing.
kernels.inc rows: {name, family, geometry, integer coordinates, access bytes, result words}
Run: python3 gen_kernels.py  (deterministic; the .ptx and .inc are committed)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The operand vectors, by geometry, built from the lookup's words %r0..%r15 (cases.h).
COORDS = {"1d": "{%r0}", "2d": "{%r0, %r1}", "3d": "{%r0, %r1, %r2, %r3}", "a1d": "{%r0, %r1}",
          "a2d": "{%r0, %r1, %r2, %r3}", "cube": "{%r0, %r1, %r2, %r3}", "acube": "{%r0, %r1, %r2, %r3}"}
DPDX = {"1d": "{%r4}", "a1d": "{%r4}", "2d": "{%r4, %r5}", "a2d": "{%r4, %r5}", "3d": "{%r4, %r5, %r6, %r7}",
        "cube": "{%r4, %r5, %r6, %r7}", "acube": "{%r4, %r5, %r6, %r7}"}
DPDY = {g: v.replace("%r4", "%r8").replace("%r5", "%r9").replace("%r6", "%r10").replace("%r7", "%r11")
        for g, v in DPDX.items()}
OFFSET = {"1d": "{%r13}", "a1d": "{%r13}", "2d": "{%r13, %r14}", "a2d": "{%r13, %r14}",
          "3d": "{%r13, %r14, %r15, %r15}"}
GEOM = {"1d": "k1d", "2d": "k2d", "3d": "k3d", "a1d": "kA1d", "a2d": "kA2d", "cube": "kCube", "acube": "kACube",
        "": "kNone"}

kernels = []  # (name, family, geometry, integer coordinates, access bytes, result words, body lines)


def add(name, family, geom, body, words, icoords=False, access=0):
    kernels.append((name, family, geom, icoords, access, words, body))


def regs(first, n):
    return ", ".join(f"%r{first + i}" for i in range(n))


def tex(mode, geom, dtype, ctype, offset=False, compare=False, pred=False):
    """tex{.base,.level,.grad}.geom.v4.dtype.ctype (and .v2.f16x2), optionally with the offset e,
    the depth-compare value f or the destination predicate p (written as a fifth word): §9.7.10.3."""
    name = "tex" + (f"_{mode}" if mode else "") + f"_{geom}_" + ("v2_f16x2" if dtype == "f16x2" else f"v4_{dtype}")
    name += f"_{ctype}" + ("_offset" if offset else "") + ("_compare" if compare else "") + ("_pred" if pred else "")
    vec = "v2" if dtype == "f16x2" else "v4"
    if dtype == "f16":
        dest = "{%h0, %h1, %h2, %h3}"
    elif dtype == "f16x2":
        dest = "{%r20, %r21}"
    else:
        dest = "{" + regs(20, 4) + "}" + ("|%p1" if pred else "")
    ins = "tex" + (f".{mode}" if mode else "") + f".{geom}.{vec}.{dtype}.{ctype}\t{dest}, [%rd0, {COORDS[geom]}]"
    if mode == "level":
        ins += ", %r12"
    if mode == "grad":
        ins += f", {DPDX[geom]}, {DPDY[geom]}"
    if offset:
        ins += ", " + OFFSET[geom]
    if compare:
        ins += ", %r12"
    body = [ins + ";"]
    if dtype == "f16":
        body += [f"cvt.u32.u16\t%r{20 + i}, %h{i};" for i in range(4)]
    if pred:
        body.append("selp.u32\t%r24, 1, 0, %p1;")
    words = 2 if dtype == "f16x2" else 5 if pred else 4
    family = {"": "kTex", "level": "kTexLevel", "grad": "kTexGrad", "base": "kTex"}[mode]
    add(name, family, geom, body, words, icoords=ctype == "s32")


def tld4(comp, geom, dtype, offset=False, compare=False):
    """tld4.comp.geom.v4.dtype.f32, optionally with the offset e or the depth-compare value f: §9.7.10.4."""
    name = f"tld4_{comp}_{geom}_v4_{dtype}_f32" + ("_offset" if offset else "") + ("_compare" if compare else "")
    ins = f"tld4.{comp}.{geom}.v4.{dtype}.f32\t{{{regs(20, 4)}}}, [%rd0, {COORDS[geom]}]"
    if offset:
        ins += ", " + OFFSET[geom]
    if compare:
        ins += ", %r12"
    add(name, "kTld4", geom, [ins + ";"], 4)


# txq on a .u64 handle: the driver's JIT (580.159, sm_90) silently drops a kernel with any other query
# (.channel_data_type, .channel_order, .normalized_coords, .array_size, .num_mipmap_levels, .num_samples,
# the sampler queries, .force_unnormalized_coords): cuModuleGetFunction then finds no such kernel.
TXQ = ["width", "height", "depth"]
# suq's .channel_data_type, .channel_order, .array_size and .memory_layout: the driver's JIT (580.159,
# sm_90) refuses a module with any of them on a .u64 handle (CUDA_ERROR_NOT_SUPPORTED).
SUQ = ["width", "height", "depth"]


def queries():
    """txq (the sizes; txq.level's at lod %r12), istypep, suq: §9.7.10.5, §9.7.10.6, §9.7.11.4.
    Separate kernels, so that a query the GPU faults on loses no other."""
    add("query_txq", "kTxq", "", [f"txq.{q}.b32\t%r{20 + i}, [%rd0];" for i, q in enumerate(TXQ)], len(TXQ))
    add("txq_level", "kTxq", "",
        [f"txq.level.{q}.b32\t%r{20 + i}, [%rd0], %r12;" for i, q in enumerate(["width", "height", "depth"])], 3)
    body = []
    for i, t in enumerate(["texref", "samplerref", "surfref"]):
        body += [f"istypep.{t}\t%p1, %rd0;", f"selp.u32\t%r{20 + i}, 1, 0, %p1;"]
    add("query_istypep", "kIstypep", "", body, 3)
    add("query_suq", "kSuq", "", [f"suq.{q}.b32\t%r{20 + i}, [%rd0];" for i, q in enumerate(SUQ)], len(SUQ))


SURF_GEOMS = ["1d", "2d", "3d", "a1d", "a2d"]
CLAMPS = ["trap", "clamp", "zero"]
# (vector, element type) of suld.b / sust.b; .v4.b64 exceeds ptxas's 128-bit limit on sm_90.
FORMS = [("", "b8"), ("", "b16"), ("", "b32"), ("", "b64"), ("v2", "b8"), ("v2", "b16"), ("v2", "b32"), ("v2", "b64"),
         ("v4", "b8"), ("v4", "b16"), ("v4", "b32")]
BYTES = {"b8": 1, "b16": 2, "b32": 4, "b64": 8, "u32": 4, "s32": 4, "u64": 8, "s64": 8}


def surface_name(parts):
    return "_".join(p for p in parts if p)


def suld(geom, vec, t, clamp):
    """suld.b.geom{.vec}.dtype.clamp: §9.7.11.1."""
    n = {"": 1, "v2": 2, "v4": 4}[vec]
    v = f".{vec}" if vec else ""
    if t == "b64":
        body = [f"suld.b.{geom}{v}.b64.{clamp}\t{{{', '.join(f'%q{i}' for i in range(n))}}}, [%rd0, {COORDS[geom]}];"]
        body += [f"mov.b64\t{{%r{20 + 2 * i}, %r{21 + 2 * i}}}, %q{i};" for i in range(n)]
        words = 2 * n
    else:
        body = [f"suld.b.{geom}{v}.{t}.{clamp}\t{{{regs(20, n)}}}, [%rd0, {COORDS[geom]}];"]
        if t != "b32":  # the element lands in the low bits; the rest of the register is cleared
            mask = "0xff" if t == "b8" else "0xffff"
            body += [f"and.b32\t%r{20 + i}, %r{20 + i}, {mask};" for i in range(n)]
        words = n
    add(surface_name(["suld_b", geom, vec, t, clamp]), "kSuld", geom, body, words, access=n * BYTES[t])


def sust_b(geom, vec, t, clamp):
    """sust.b.geom{.vec}.ctype.clamp with the lookup's words 4..7 as data: §9.7.11.2."""
    n = {"": 1, "v2": 2, "v4": 4}[vec]
    v = f".{vec}" if vec else ""
    if t == "b64":
        body = [f"mov.b64\t%q{i}, {{%r{4 + 2 * i}, %r{5 + 2 * i}}};" for i in range(n)]
        data = "{" + ", ".join(f"%q{i}" for i in range(n)) + "}"
    else:
        body, data = [], "{" + regs(4, n) + "}"
    body.append(f"sust.b.{geom}{v}.{t}.{clamp}\t[%rd0, {COORDS[geom]}], {data};")
    add(surface_name(["sust_b", geom, vec, t, clamp]), "kSustB", geom, body, 0, access=n * BYTES[t])


def sust_p(geom, vec, clamp):
    """sust.p.geom{.vec}.b32.clamp, x in elements: §9.7.11.2."""
    n = {"": 1, "v2": 2, "v4": 4}[vec]
    v = f".{vec}" if vec else ""
    body = [f"sust.p.{geom}{v}.b32.{clamp}\t[%rd0, {COORDS[geom]}], {{{regs(4, n)}}};"]
    add(surface_name(["sust_p", geom, vec, "b32", clamp]), "kSustP", geom, body, 0)


def sured(kind, op, geom, t, clamp):
    """sured.{b,p}.op.geom.ctype.clamp with data word 4 (and 5 for 64 bits): §9.7.11.3."""
    if BYTES.get(t, 4) == 8:
        body = ["mov.b64\t%q0, {%r4, %r5};", f"sured.{kind}.{op}.{geom}.{t}.{clamp}\t[%rd0, {COORDS[geom]}], %q0;"]
    else:
        body = [f"sured.{kind}.{op}.{geom}.{t}.{clamp}\t[%rd0, {COORDS[geom]}], %r4;"]
    add(surface_name(["sured", kind, op, geom, t, clamp]), "kSuredB" if kind == "b" else "kSuredP", geom, body, 0,
        access=BYTES[t])


def build():
    for geom in ["1d", "2d", "3d", "a1d", "a2d", "cube", "acube"]:
        for dtype in ["f32", "s32", "u32"]:
            tex("", geom, dtype, "f32")
    for geom in ["1d", "2d"]:
        for dtype in ["f32", "s32", "u32"]:
            tex("", geom, dtype, "s32")
    for geom in ["3d", "a1d", "a2d"]:
        tex("", geom, "f32", "s32")
    tex("base", "2d", "f32", "f32")
    for geom in ["1d", "2d", "3d", "a1d", "a2d", "cube", "acube"]:
        tex("level", geom, "f32", "f32")
        tex("grad", geom, "f32", "f32")
    tex("level", "2d", "f32", "s32")
    tex("", "2d", "f16", "f32")
    tex("", "2d", "f16x2", "f32")
    for geom in ["1d", "2d", "3d", "a2d"]:
        tex("", geom, "f32", "f32", offset=True)
    tex("", "2d", "f32", "s32", offset=True)
    tex("level", "2d", "f32", "f32", offset=True)
    tex("grad", "2d", "f32", "f32", offset=True)
    tex("", "2d", "f32", "f32", compare=True)
    tex("", "2d", "f32", "f32", pred=True)
    for comp in "rgba":
        for dtype in ["f32", "s32", "u32"]:
            tld4(comp, "2d", dtype)
    for geom in ["a2d", "cube", "acube"]:
        for comp in "ra":
            tld4(comp, geom, "f32")
    tld4("r", "2d", "f32", offset=True)
    tld4("r", "2d", "f32", compare=True)
    queries()
    for geom in SURF_GEOMS:
        for vec, t in FORMS:
            for clamp in CLAMPS:
                suld(geom, vec, t, clamp)
                sust_b(geom, vec, t, clamp)
    for geom in SURF_GEOMS:  # §9.7.11.2 lists sust.p for 1d/2d/3d; ptxas takes a1d/a2d too
        for clamp in CLAMPS:
            sust_p(geom, "v4", clamp)
    sust_p("2d", "", "clamp")
    sust_p("2d", "v2", "clamp")
    reductions = [("add", "u32"), ("add", "s32"), ("add", "u64"), ("min", "u32"), ("min", "s32"), ("min", "u64"),
                  ("min", "s64"), ("max", "u32"), ("max", "s32"), ("max", "u64"), ("max", "s64"), ("and", "b32"),
                  ("or", "b32")]
    for op, t in reductions:
        sured("b", op, "2d", t, "clamp")
        sured("b", op, "1d", t, "zero")
    sured("b", "add", "1d", "u32", "clamp")
    sured("b", "add", "3d", "u32", "clamp")
    sured("b", "add", "2d", "u32", "trap")
    for op in ["add", "min", "max", "and", "or"]:
        sured("p", op, "1d", "b32", "clamp")
    for op in ["min", "max"]:
        sured("p", op, "1d", "b64", "clamp")


def emit(name, body, words):
    lines = [f".visible .entry {name}(.param .u64 handle, .param .u64 coords, .param .u64 out, .param .u32 n)", "{",
             "\t.reg .pred %p<2>;", "\t.reg .b16 %h<4>;", "\t.reg .b32 %r<40>;", "\t.reg .b64 %rd<4>;",
             "\t.reg .b64 %q<4>;",
             "\tmov.u32\t%r16, %ctaid.x;", "\tmov.u32\t%r17, %ntid.x;", "\tmov.u32\t%r18, %tid.x;",
             "\tmad.lo.u32\t%r16, %r16, %r17, %r18;", "\tld.param.u32\t%r17, [n];", "\tsetp.ge.u32\t%p0, %r16, %r17;",
             "\t@%p0 bra\tDONE;", "\tld.param.u64\t%rd0, [handle];", "\tld.param.u64\t%rd1, [coords];",
             "\tcvta.to.global.u64\t%rd1, %rd1;", "\tmul.wide.u32\t%rd3, %r16, 64;", "\tadd.u64\t%rd1, %rd1, %rd3;",
             "\tld.global.v4.b32\t{%r0, %r1, %r2, %r3}, [%rd1];",
             "\tld.global.v4.b32\t{%r4, %r5, %r6, %r7}, [%rd1+16];",
             "\tld.global.v4.b32\t{%r8, %r9, %r10, %r11}, [%rd1+32];",
             "\tld.global.v4.b32\t{%r12, %r13, %r14, %r15}, [%rd1+48];"]
    lines += ["\t" + b for b in body]
    if words:
        lines += ["\tld.param.u64\t%rd2, [out];", "\tcvta.to.global.u64\t%rd2, %rd2;",
                  f"\tmul.wide.u32\t%rd3, %r16, {4 * words};", "\tadd.u64\t%rd2, %rd2, %rd3;"]
        lines += [f"\tst.global.b32\t[%rd2+{4 * i}], %r{20 + i};" for i in range(words)]
    lines += ["DONE:", "\tret;", "}", ""]
    return "\n".join(lines)


def main():
    build()
    ptx = ["// Generated by gen_kernels.py: one kernel per texture or surface instruction form (kernels.inc).",
           ".version 8.1", ".target sm_90", ".address_size 64", ""]
    inc = ["// Generated by gen_kernels.py: {name, family, geometry, integer coordinates, access bytes, result words}"]
    for name, family, geom, icoords, access, words, body in kernels:
        ptx.append(emit(name, body, words))
        inc.append(f'{{"{name}", {family}, {GEOM[geom]}, {"true" if icoords else "false"}, {access}, {words}}},')
    with open(os.path.join(HERE, "texture_kernels.ptx"), "w") as f:
        f.write("\n".join(ptx))
    with open(os.path.join(HERE, "kernels.inc"), "w") as f:
        f.write("\n".join(inc) + "\n")
    print(len(kernels), "kernels")


main()
