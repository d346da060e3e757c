"""The kernel launches of the tests/kernels suite: inputs from fixed seeds.

Shared by record.py (runs them on a GPU, saves outputs to recorded.npz) and
test_kernels.py (runs them on ptxvm and compares bit for bit). Inputs come
from PCG64's raw 64-bit stream (random_raw), whose values are fixed by the
generator's definition, not by numpy's sampling routines, so they are the
same on every numpy version; record.py stores a digest of each launch's
inputs and the test checks it.
"""
import hashlib, json, os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PTX_DIR = os.path.join(HERE, "ptx")


class Rng:
    def __init__(self, seed):
        self.bits = np.random.Generator(np.random.PCG64(seed)).bit_generator

    def raw(self, n):
        return self.bits.random_raw(n).astype(np.uint64)

    def u32(self, n):
        return (self.raw(n) >> np.uint64(32)).astype(np.uint32)

    def u64(self, n):
        return self.raw(n)

    def i32(self, n, lo, hi):  # uniform in [lo, hi)
        return (lo + (self.raw(n) % np.uint64(hi - lo)).astype(np.int64)).astype(np.int32)

    def unit(self, n):  # [0, 1) with 53 random bits
        return (self.raw(n) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53

    def f64(self, n, lo, hi):
        return lo + (hi - lo) * self.unit(n)

    def f32(self, n, lo, hi):
        return self.f64(n, lo, hi).astype(np.float32)

    def float_bits(self, shape, ebits, mbits, elo, ehi):
        """Bit patterns (uint64) of floats with ebits/mbits: random sign and mantissa, biased
        exponent field uniform in [elo, ehi] (0: subnormals and zeros)."""
        n = int(np.prod(shape))
        r, m = self.raw(n), self.raw(n)
        sign = r >> np.uint64(63)
        mant = m >> np.uint64(64 - mbits)
        exp = np.uint64(elo) + (r & np.uint64(0xffffffff)) % np.uint64(ehi - elo + 1)
        return ((sign << np.uint64(ebits + mbits)) | (exp << np.uint64(mbits)) | mant).reshape(shape)


class Launch:
    """One kernel launch. args: ("in"|"out", name, array) for buffers (an "out"
    buffer starts with the array's contents and is compared after the launch),
    (kind, value) scalars with kind in u32, s32, u64, f32, f64, or ("tensormap",
    fields, array, output) for a tensor map over the buffer `array` named
    fields["buffer"] (compared after the launch when `output`), the other fields
    those of cuTensorMapEncodeTiled as the manifest's tensormap argument names them.
    `undefined`: the report the sanitizer must give for a kernel whose PTX is undefined where the
    GPU (through ptxas) still gives results, which are recorded and compared as any others."""

    def __init__(self, name, ptx, kernel, grid, block, args, shared_bytes=0, cooperative=False, printf=False,
                 undefined=None):
        self.name, self.ptx, self.kernel = name, ptx, kernel
        self.grid, self.block = list(grid), list(block)
        self.args, self.shared_bytes = args, shared_bytes
        self.cooperative, self.printf = cooperative, printf
        self.undefined = undefined

    def buffers(self):
        return [(a[0], a[1], a[2]) if a[0] != "tensormap" else ("out" if a[3] else "in", a[1]["buffer"], a[2])
                for a in self.args if a[0] in ("in", "out", "tensormap")]

    def outputs(self):
        return [(n, arr) for kind, n, arr in self.buffers() if kind == "out"]

    def input_digest(self):
        h = hashlib.sha256()
        h.update(json.dumps([self.ptx, self.kernel, self.grid, self.block, self.shared_bytes, self.cooperative]).encode())
        for a in self.args:
            if a[0] in ("in", "out"):
                h.update(f"{a[0]}:{a[1]}:{a[2].dtype.str}:{a[2].shape}".encode())
                h.update(np.ascontiguousarray(a[2]).tobytes())
            elif a[0] == "tensormap":
                h.update(("tensormap=" + json.dumps(a[1], sort_keys=True) + f":{a[3]}:{a[2].dtype.str}").encode())
                h.update(np.ascontiguousarray(a[2]).tobytes())
            else:
                h.update(f"{a[0]}={a[1]!r}".encode())
        return h.hexdigest()

    def manifest(self, ptx_path, buffer_dir):
        """The `ptxvm run` manifest; writes the buffers' initial contents to buffer_dir."""
        args = []
        for a in self.args:
            if a[0] in ("in", "out"):
                fn = f"{a[1]}.npy"
                np.save(os.path.join(buffer_dir, fn), a[2])
                args.append({"buffer": fn, "output": fn} if a[0] == "out" else {"buffer": fn})
            elif a[0] == "tensormap":
                fn = f"{a[1]['buffer']}.npy"
                np.save(os.path.join(buffer_dir, fn), a[2])
                args.append({"tensormap": dict(a[1], buffer=fn), **({"output": fn} if a[3] else {})})
            else:
                args.append({a[0]: a[1]})
        m = {"ptx": ptx_path, "kernel": self.kernel, "grid": self.grid, "block": self.block,
             "shared_bytes": self.shared_bytes, "args": args}
        if self.cooperative:
            m["cooperative"] = True
        return m


def _triton_meta():
    with open(os.path.join(PTX_DIR, "triton_meta.json")) as f:
        return json.load(f)


def all_launches():
    L = []
    rs, sh, tm, cp_, mf, cg = ("reduce_scan.sm_90.ptx", "sort_histogram.sm_90.ptx", "transpose_matmul.sm_90.ptx",
                               "calls_printf.sm_90.ptx", "math64_float.sm_90.ptx", "coop_groups.sm_90.ptx")
    z = np.zeros

    # --- reductions and scans ---
    r = Rng(1001)
    n = 5000
    L.append(Launch("reduce_sum_shfl", rs, "reduce_sum_shfl", [4], [256],
                    [("in", "in", r.i32(n, -100000, 100000)), ("out", "out", z(5, np.int32)), ("s32", n)]))
    r = Rng(1002)
    n = 6000
    L.append(Launch("reduce_f32_xor", rs, "reduce_f32_xor", [4], [192],
                    [("in", "in", r.f32(n, -1000.0, 1000.0)), ("out", "partial", z(4, np.float32)), ("s32", n)]))
    r = Rng(1003)
    L.append(Launch("reduce_argmax_f64", rs, "reduce_argmax_f64", [4], [256],
                    [("in", "in", np.round(r.f64(1024, -50.0, 50.0), 1)), ("out", "max", z(4, np.float64)),
                     ("out", "idx", z(4, np.int32))]))
    r = Rng(1004)
    L.append(Launch("scan_inclusive_u32", rs, "scan_inclusive_u32", [4], [256],
                    [("in", "in", r.u32(1024) >> np.uint32(8)), ("out", "out", z(1024, np.uint32)),
                     ("out", "block_sums", z(4, np.uint32))]))
    r = Rng(1005)
    L.append(Launch("scan_blelloch_f32", rs, "scan_blelloch_f32", [3], [256],
                    [("in", "in", r.f32(1536, -1.0, 1.0)), ("out", "out", z(1536, np.float32))]))

    # --- histograms, atomics, sorts ---
    r = Rng(2001)
    n = 8000
    data = (r.u32(n) % np.uint32(97) + (r.u32(n) % np.uint32(160))).astype(np.uint8)
    L.append(Launch("histogram256", sh, "histogram256", [4], [256],
                    [("in", "data", data), ("out", "hist", z(256, np.uint32)), ("s32", n)]))
    r = Rng(2002)
    n = 1000
    stats = np.array([0, -2**31, 2**31 - 1, 0, -1, 0, 0, 0], dtype=np.int32)
    L.append(Launch("atomics_mix", sh, "atomics_mix", [4], [256],
                    [("in", "in", r.i32(n, -1000000, 1000000)), ("out", "stats", stats),
                     ("out", "sum64", z(1, np.uint64)), ("out", "fmax", np.array([-np.inf], np.float32)),
                     ("s32", n)]))
    r = Rng(2003)
    L.append(Launch("bitonic_sort_u32", sh, "bitonic_sort_u32", [3], [256],
                    [("out", "keys", r.u32(1536))]))
    r = Rng(2004)
    keys = np.round(r.f32(512, -10.0, 10.0), 1).astype(np.float32)  # ties: the network's order is fixed
    L.append(Launch("bitonic_sort_kv_f32", sh, "bitonic_sort_kv_f32", [2], [256],
                    [("out", "keys", keys), ("out", "vals", np.arange(512, dtype=np.int32))]))
    r = Rng(2005)
    L.append(Launch("radix_sort_u32", sh, "radix_sort_u32", [3], [256],
                    [("out", "keys", r.u32(768) % np.uint32(5000)), ("out", "perm", z(768, np.uint32))]))

    # --- transpose and matmul ---
    r = Rng(3001)
    h, w = 72, 100
    L.append(Launch("transpose_tiled", tm, "transpose_tiled", [(w + 31) // 32, (h + 31) // 32], [32, 8],
                    [("in", "in", r.f32(h * w, -5.0, 5.0)), ("out", "out", z(h * w, np.float32)),
                     ("s32", w), ("s32", h)]))
    r = Rng(3002)
    L.append(Launch("transpose_dyn_u64", tm, "transpose_dyn_u64", [4, 4], [16, 16],
                    [("in", "in", r.u64(64 * 64)), ("out", "out", z(64 * 64, np.uint64)), ("s32", 64)],
                    shared_bytes=16 * 17 * 8))
    r = Rng(3003)
    m_, n_, k_ = 40, 48, 56
    L.append(Launch("matmul_tiled_f32", tm, "matmul_tiled_f32", [(n_ + 15) // 16, (m_ + 15) // 16], [16, 16],
                    [("in", "A", r.f32(m_ * k_, -1.0, 1.0)), ("in", "B", r.f32(k_ * n_, -1.0, 1.0)),
                     ("out", "C", z(m_ * n_, np.float32)), ("s32", m_), ("s32", n_), ("s32", k_)]))

    # --- calls, local arrays, printf ---
    r = Rng(4001)
    n = 300
    L.append(Launch("recursion", cp_, "recursion", [3], [128],
                    [("in", "in", r.u32(n)), ("out", "out", z(4 * n, np.int64)), ("out", "dout", z(n, np.float64)),
                     ("s32", n)]))
    r = Rng(4002)
    n = 500
    a = r.i32(n, -5000, 5000)
    b = r.i32(n, -300, 300)
    L.append(Launch("func_pointers", cp_, "func_pointers", [4], [128],
                    [("in", "a", a), ("in", "b", b), ("out", "out", z(n, np.int32)), ("out", "fout", z(n, np.float32)),
                     ("s32", n)]))
    r = Rng(4003)
    n = 256
    L.append(Launch("local_arrays", cp_, "local_arrays", [2], [128],
                    [("in", "in", r.u32(n)), ("out", "out", z(3 * n, np.uint32)), ("s32", n)]))
    iv = np.array([-42, 2147483647, 3000000000 - 2**32, 0xbeef, 511, 77, -9, 123456], dtype=np.int32)
    fv = np.array([3.14159265, -0.0001234, 6.02214076e23, -1.5e-7, 123456.789, 1e-5, 0.5, -2.75], dtype=np.float32)
    dv = np.array([2.718281828459045, -1.0 / 3.0, 0.1], dtype=np.float64)
    L.append(Launch("printf", cp_, "printf_kernel", [1], [128],
                    [("in", "iv", iv), ("in", "fv", fv), ("in", "dv", dv)], printf=True))

    # --- 64-bit integers, double and float math, softmax ---
    r = Rng(5001)
    n = 512
    a = r.u64(n)
    b = r.u64(n) >> (r.u64(n) % np.uint64(64))
    b[b == 0] = 3
    a[:8] = [0, 1, 2**63, 2**64 - 1, 2**63 - 1, 12345, 2**32, 2**64 - 7]
    b[:8] = [1, 2**64 - 1, 2**64 - 1, 2**64 - 1, 2, 2**63, 2**32 - 1, 7]
    L.append(Launch("int64_ops", mf, "int64_ops", [4], [128],
                    [("in", "a", a), ("in", "b", b), ("out", "out", z(12 * n, np.uint64)), ("s32", n)]))
    r = Rng(5002)
    n = 384
    y = r.f64(n, -8.0, 8.0)
    y[y == 0] = 0.5
    L.append(Launch("double_math", mf, "double_math", [3], [128],
                    [("in", "x", r.f64(n, -8.0, 8.0)), ("in", "y", y), ("out", "out", z(16 * n, np.float64)),
                     ("s32", n)]))  # rsqrt.approx.f64: bit-exact (src/numeric/sfu.h, sem/float.cpp)
    r = Rng(5003)
    n = 512
    x = r.f32(n, -20.0, 20.0)
    y = r.f32(n, -6.0, 6.0)
    y[y == 0] = 0.5
    x[:8] = [0.0, -0.0, 1e-40, -1e-40, 88.7, -104.0, 3.4e38, np.inf]
    # __sinf(x), __cosf(y): sin/cos.approx, bit-exact (src/numeric/sfu.h), also beyond 100 pi
    # where the ISA bounds no error.
    L.append(Launch("float_math", mf, "float_math", [4], [128],
                    [("in", "x", x), ("in", "y", y), ("out", "out", z(16 * n, np.float32)), ("s32", n)]))
    r = Rng(5004)
    rows, cols = 6, 700
    L.append(Launch("softmax_rows", mf, "softmax_rows", [rows], [128],
                    [("in", "x", r.f32(rows * cols, -30.0, 30.0)), ("out", "y", z(rows * cols, np.float32)),
                     ("s32", cols)]))  # expf: ex2.approx.ftz.f32, bit-exact (src/numeric/sfu.h)

    # --- cooperative groups ---
    r = Rng(6001)
    n = 1000
    L.append(Launch("cg_tiles", cg, "cg_tiles", [4], [256],
                    [("in", "in", r.i32(n, -50000, 50000)), ("out", "out", z(5 * n, np.int32)), ("s32", n)]))
    r = Rng(6002)
    n = 3000
    L.append(Launch("cg_grid_sum", cg, "cg_grid_sum", [4], [256],
                    [("in", "in", r.f32(n, 0.0, 10.0)), ("out", "partial", z(4, np.float32)),
                     ("out", "total", z(1, np.float32)), ("out", "scaled", z(n, np.float32)), ("s32", n)],
                    cooperative=True))
    r = Rng(6003)
    n = 1500
    L.append(Launch("cg_grid_jacobi", cg, "cg_grid_jacobi", [3], [128],
                    [("out", "a", r.f32(n, -1.0, 1.0)), ("out", "b", z(n, np.float32)), ("s32", n), ("s32", 7)],
                    cooperative=True))

    # --- warp and block primitives (match, activemask, barrier.red, alloca, brx.idx, ldu) ---
    wm = "warp_misc.sm_90.ptx"
    r = Rng(6101)
    keys = r.u32(256) % 7
    for w in range(8):  # per warp: bit 8 set everywhere, nowhere, at random; warp 7 one odd key
        lanes = slice(32 * w, 32 * w + 32)
        if w % 3 == 0:
            keys[lanes] |= 0x100
        elif w % 3 == 2:
            keys[lanes] |= (r.u32(32) & 1) << 8
    keys[224:256] = 0x105
    L.append(Launch("match_keys", wm, "match_keys", [2], [128],
                    [("in", "keys", keys.astype(np.uint32)), ("out", "out", z(8 * 256, np.uint32))]))
    r = Rng(6102)
    L.append(Launch("active_masks", wm, "active_masks", [2], [128],
                    [("in", "in", r.u32(256)), ("out", "out", z(4 * 256, np.uint32))]))
    r = Rng(6103)
    votes = np.concatenate([r.u32(256) % 7, r.u32(256) % 8, (r.u32(256) % 3) * 3]).astype(np.uint32)
    L.append(Launch("block_votes", wm, "block_votes", [3], [256],
                    [("in", "in", votes), ("out", "out", z(3 * 768, np.uint32))]))
    r = Rng(6104)
    L.append(Launch("stack_arrays", wm, "stack_arrays", [2], [64],
                    [("in", "in", r.u32(128)), ("out", "out", z(128, np.uint32))]))
    r = Rng(6105)
    L.append(Launch("switch_table", wm, "switch_table", [2], [128],
                    [("in", "in", r.u32(256)), ("out", "out", z(256, np.uint32)), ("s32", 250)]))
    r = Rng(6106)
    L.append(Launch("indexed_branches", wm, "indexed_branches", [2], [64],
                    [("in", "in", r.u32(128)), ("out", "out", z(128, np.uint32))]))
    r = Rng(6107)
    L.append(Launch("uniform_loads", wm, "uniform_loads", [3], [128],
                    [("in", "table", r.u32(16)), ("in", "in", r.u32(384)), ("out", "out", z(384, np.uint32))]))
    r = Rng(6108)
    L.append(Launch("named_barriers", wm, "named_barriers", [2], [128],
                    [("in", "in", r.u32(128)), ("out", "out", z(3 * 128, np.uint32))]))
    r = Rng(6109)
    L.append(Launch("early_exit", wm, "early_exit", [2], [96],
                    [("in", "in", r.u32(192)), ("out", "out", z(3 * 192, np.uint32))]))
    r = Rng(6110)
    L.append(Launch("last_block_sum", wm, "last_block_sum", [6], [128],
                    [("in", "in", r.u32(768) % 100000), ("out", "partial", z(6, np.uint32)),
                     ("out", "count", z(1, np.uint32)), ("out", "total", z(1, np.uint32))]))

    # --- Triton (two trailing null pointers: Triton's global and profile scratch) ---
    meta = _triton_meta()

    def triton(name, grid, args):
        m = meta[name]
        return Launch("triton_" + name, m["ptx"], m["kernel"], grid, [m["block"]],
                      args + [("u64", 0), ("u64", 0)], shared_bytes=m["shared_bytes"])

    r = Rng(7001)
    n = 1000
    L.append(triton("vector_add", [4], [("in", "x", r.f32(n, -100.0, 100.0)), ("in", "y", r.f32(n, -100.0, 100.0)),
                                        ("out", "out", z(n, np.float32)), ("s32", n)]))
    r = Rng(7002)
    rows, cols = 5, 300
    L.append(triton("softmax_rows", [rows], [("in", "x", r.f32(rows * cols, -10.0, 10.0)),
                                             ("out", "y", z(rows * cols, np.float32)), ("s32", cols), ("s32", cols)]))
    # (ex2.approx.f32 and div.full.f32: bit-exact, src/numeric/sfu.h and sem/float.cpp)
    r = Rng(7003)
    rows, cols = 6, 1000
    L.append(triton("row_sum_max", [rows], [("in", "x", r.f32(rows * cols, -3.0, 3.0)),
                                            ("out", "sum", z(rows, np.float32)), ("out", "max", z(rows, np.float32)),
                                            ("s32", cols)]))
    r = Rng(7004)
    n = 700
    L.append(triton("int_hash", [3], [("in", "x", r.u32(n)), ("out", "out", z(n, np.uint32)), ("s32", n)]))
    # Which mul/add pairs ptxas fuses (ptx/hand_contraction.ptx, src/lower/contraction.h): c nearly
    # cancels a*b (within 2^-20 relative, or within 1.5 for a quarter of them), so that each result
    # shows whether the product was rounded first; f16 and bf16 pairs likewise; flag picks a branch.
    r = Rng(9101)
    n = 4096
    a = (r.f64(n, 0.5, 4) * np.where(r.u32(n) & 1, 1.0, -1.0)).astype(np.float32)
    b = r.f64(n, 0.5, 4).astype(np.float32)
    c = (-(a.astype(np.float64) * b) * (1 + r.f64(n, -2.0**-20, 2.0**-20))).astype(np.float32)
    c[: n // 4] = (-(a[: n // 4].astype(np.float64) * b[: n // 4]) + r.f64(n // 4, -1.5, 1.5)).astype(np.float32)
    d = r.f64(n, 0.5, 4).astype(np.float32)
    wide = np.stack([r.f64(n, 0.5, 4), r.f64(n, 0.5, 4)], 1)
    pairs = np.concatenate([np.stack([a, b, c, np.zeros(n, np.float32)], 1).view(np.uint32),
                            wide.view(np.uint32)], 1).reshape(-1)
    L.append(Launch("hand_contraction_pairs", "hand_contraction.ptx", "contract_pairs", [n // 256], [256],
                    [("in", "in", pairs), ("out", "out", z(n * 16, np.uint32)), ("u32", n)]))
    ha, hb = r.f64(n, 0.5, 4).astype(np.float16), r.f64(n, 0.5, 4).astype(np.float16)
    hc = (-(ha.astype(np.float64) * hb) * (1 + r.f64(n, -2e-3, 2e-3))).astype(np.float16)
    bf16 = lambda x: (np.asarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint32)
    ba, bb = bf16(r.f64(n, 0.5, 4)), bf16(r.f64(n, 0.5, 4))
    bc = bf16(-((ba << 16).view(np.float32).astype(np.float64) * (bb << 16).view(np.float32)) * (1 + r.f64(n, -2e-2, 2e-2)))
    halves = np.stack([ha.view(np.uint16) | ba << 16, hb.view(np.uint16) | bb << 16, hc.view(np.uint16) | bc << 16,
                       r.u32(n) & 1], 1).astype(np.uint32)
    rules = np.concatenate([np.stack([a, b, c, d], 1).view(np.uint32), halves], 1).reshape(-1)
    L.append(Launch("hand_contraction_rules", "hand_contraction.ptx", "contract_rules", [n // 256], [256],
                    [("in", "in", rules), ("out", "out", z(n * 16, np.uint32)), ("u32", n)]))
    wide_c = -(wide[:, 0] * 3.0) * (1 + r.f64(n, -2.0**-40, 2.0**-40))
    blocks = np.concatenate([np.stack([a, b, c], 1).view(np.uint32), (r.u32(n) & 1)[:, None].astype(np.uint32),
                             np.stack([wide[:, 0], wide_c], 1).view(np.uint32)], 1).reshape(-1)
    L.append(Launch("hand_contraction_blocks", "hand_contraction.ptx", "contract_blocks", [n // 256], [256],
                    [("in", "in", blocks), ("out", "out", z(n * 16, np.uint32)), ("u32", n)]))
    # .approx functions of constants, which ptxas computes at compile time (ptx/hand_folding.ptx,
    # written by gen_hand_folding.py): 15 x 48 x 2 results by one thread.
    L.append(Launch("hand_folding", "hand_folding.ptx", "constants", [1], [1], [("out", "out", z(15 * 48 * 2, np.uint32))]))
    # Divisions by constants (contract_constants): a with every exponent, c near -a/255, b a register.
    a = r.float_bits((n,), 8, 23, 1, 254).astype(np.uint32).view(np.float32)
    a[:6] = [0.0, -0.0, np.inf, np.nan, 1e-40, 3e38]
    c = (-(a.astype(np.float64) / 255) * (1 + r.f64(n, -2.0**-20, 2.0**-20))).astype(np.float32)
    consts = np.stack([a, c, r.f64(n, 0.5, 300).astype(np.float32), (r.u32(n) & 1).view(np.float32)], 1).reshape(-1)
    L.append(Launch("hand_contraction_constants", "hand_contraction.ptx", "contract_constants", [n // 256], [256],
                    [("in", "in", consts), ("out", "out", z(n * 16, np.uint32)), ("u32", n)]))
    # libdevice's math (triton/libdevice.py): x and y over [-1, 1], [-20, 20], half-integers and
    # integers near the gamma functions' poles, every exponent, and the specials (zeros, infinities,
    # NaN, subnormals, the largest floats).
    def math_inputs(r, n, fmt):
        k = n // 4
        unit, wide, poles = r.f64(k, -1, 1), r.f64(k, -20, 20), np.round(r.f64(k, -30, 30) * 2) / 2
        bits = r.float_bits((n - 3 * k,), fmt[0], fmt[1], 1, 2**fmt[0] - 2)  # random signs, every exponent
        spread_ = bits.astype(np.uint32).view(np.float32) if fmt[2] == np.float32 else bits.view(np.float64)
        v = np.concatenate([unit, wide, poles, spread_.astype(np.float64)]).astype(fmt[2])
        v[:12] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, np.finfo(fmt[2]).max, -np.finfo(fmt[2]).max,
                  np.finfo(fmt[2]).tiny / 4, -np.finfo(fmt[2]).tiny / 2, 0.5]
        return v
    for name, seed, fmt, functions in [("libdevice90_f32", 8601, F32, 43), ("libdevice90_f64", 8602, F64, 14),
                                       ("libdevice90_2_f32", 8603, F32, 37), ("libdevice90_2_f64", 8604, F64, 32)]:
        r = Rng(seed)
        n = 4096 if fmt is F32 else 2048
        x, y = math_inputs(r, n, fmt), math_inputs(r, n, fmt)
        if name == "libdevice90_2_f64":
            # j0 and y1 meet two NaNs, x and MUFU.RCP64H's; which one an f64 add or fma passes on
            # depends on how ptxas orders their operands, so x is the NaN the unit writes.
            x[4:5].view(np.uint64)[0] = 0x7fffffff00000000
        L.append(triton(name, [n // 256], [("in", "x", x), ("in", "y", y[::-1].copy()),
                                           ("out", "out", z(functions * n, fmt[2])), ("s32", n)]))
    # ML element-wise code (triton/activations.py): x over [-30, 30], a quarter in [-1, 1], the
    # specials; dropout with p = 0.3 and a fixed seed.
    r = Rng(8701)
    n = 4096
    x = np.concatenate([r.f32(3 * n // 4, -30, 30), r.f32(n // 4, -1, 1)])
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 88.72]
    L.append(triton("activations90", [n // 256], [("in", "x", x), ("out", "out", z(18 * n, np.float32)), ("s32", n)]))
    x = r.f32(10000, -5, 5)
    L.append(triton("dropout90", [10], [("in", "x", x), ("out", "out", z(10000, np.float32)), ("s32", 10000),
                                        ("f32", 0.3), ("s32", 123457)]))
    # Layer norm as Triton's tutorial 05 computes it (triton/layer_norm.py), f16 rows of 3000
    # (chunks of 1024 masked at the end), values of the tutorial's ranges; row 5 is constant, so
    # its variance is 0 and rstd = 1/sqrt(eps).
    r = Rng(7005)
    rows, cols, programs = 48, 3000, 12
    x = r.f32(rows * cols, -4.0, 1.5).astype(np.float16)
    x[5 * cols:6 * cols] = np.float16(-1.25)
    w, b = r.f32(cols, 0.0, 1.0).astype(np.float16), r.f32(cols, 0.0, 1.0).astype(np.float16)
    L.append(triton("layer_norm90_fwd", [rows], [
        ("in", "x", x), ("out", "y", z(rows * cols, np.float16)), ("in", "w", w), ("in", "b", b),
        ("out", "mean", z(rows, np.float32)), ("out", "rstd", z(rows, np.float32)), ("s32", cols), ("f32", 1e-5)]))
    dy = r.f32(rows * cols, -0.3, 0.3).astype(np.float16)
    mean, rstd = r.f32(rows, -2.0, 0.0), r.f32(rows, 0.5, 4.0)
    L.append(triton("layer_norm90_bwd_dx", [programs], [
        ("out", "dx", z(rows * cols, np.float16)), ("in", "dy", dy), ("in", "x", x), ("in", "w", w),
        ("in", "mean", mean), ("in", "rstd", rstd), ("out", "dw_part", z(programs * cols, np.float32)),
        ("out", "db_part", z(programs * cols, np.float32)), ("s32", rows), ("s32", cols)]))
    L.append(triton("layer_norm90_bwd_dwdb", [(cols + 127) // 128], [
        ("in", "dw_part", r.f32(programs * cols, -3.0, 3.0)), ("in", "db_part", r.f32(programs * cols, -3.0, 3.0)),
        ("out", "dw", z(cols, np.float16)), ("out", "db", z(cols, np.float16)), ("s32", programs), ("s32", cols)]))

    # --- bulk asynchronous copies (cuda/bulk_copy.cu): a bulk load on a barrier, a bulk store ---
    bc = "bulk_copy.sm_90.ptx"
    r = Rng(9001)
    n = 320
    L.append(Launch("bulk_load_barrier", bc, "bulk_load_barrier", [3], [128],
                    [("in", "in", r.i32(3 * n * 4, -2**31, 2**31 - 1)), ("out", "out", z(3 * n * 4, np.int32)),
                     ("s32", n)]))
    r = Rng(9002)
    L.append(Launch("bulk_store_group", bc, "bulk_store_group", [4], [256],
                    [("in", "in", r.f32(4 * 1024, -100.0, 100.0)), ("out", "out", z(4 * 1024, np.float32))]))
    # bulk reductions (cuda/bulk_reduce.cu): 23 regions of 64 words, one per operation and type in
    # the kernel's order; float regions hold every exponent (zeros, subnormals, Inf, NaN included).
    r = Rng(9003)
    kinds = ["u", "u", "u", "f32", "f64", "f16", "bf16"] + ["u"] * 16
    def region_words(kind):
        if kind == "f32":
            return r.float_bits((64,), 8, 23, 0, 255).astype(np.uint32)
        if kind == "f64":
            return r.float_bits((32,), 11, 52, 0, 2047).astype(np.uint64).view(np.uint32)
        if kind in ("f16", "bf16"):
            e, m_ = (5, 10) if kind == "f16" else (8, 7)
            return r.float_bits((128,), e, m_, 0, (1 << e) - 1).astype(np.uint16).view(np.uint32)
        return r.u32(64)
    src = np.concatenate([region_words(k) for k in kinds])
    dst = np.concatenate([region_words(k) for k in kinds])
    dst[15 * 64:17 * 64] %= np.uint32(1000)  # .inc/.dec: counters below and above the source bound
    src[15 * 64:17 * 64] %= np.uint32(1000)
    L.append(Launch("bulk_reduce", "bulk_reduce.sm_90.ptx", "bulk_reduce", [1], [128], [("in", "in", src), ("out", "out", dst)]))
    L += tensor_core_launches()
    return L


# Float formats for the tensor-core inputs: (exponent bits, mantissa bits, storage dtype).
# bf16 and fp8 have no numpy type: their buffers hold the bit patterns.
F16, BF16, F32, F64 = (5, 10, np.float16), (8, 7, np.uint16), (8, 23, np.float32), (11, 52, np.float64)
E4M3, E5M2 = (4, 3, np.uint8), (5, 2, np.uint8)
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}  # by size in bytes


def spread(r, shape, fmt, elo, ehi):
    """Floats of format fmt (exponent field in [elo, ehi]: a spread of magnitudes, both signs)."""
    ebits, mbits, dtype = fmt
    bits = r.float_bits(shape, ebits, mbits, elo, ehi)
    return bits.astype(UINT[np.dtype(dtype).itemsize]).view(dtype)


def cancelling(a, b, fmt):
    """Makes A (M x K) B (K x N) products cancel exactly in every fourth row and column: A's rows
    3 mod 4 are [x, -x] and B's columns 1 mod 4 are [y; y], so (A B)[r, c] is an exact zero whose
    rounding depends on the order of the accumulation."""
    k2 = a.shape[1] // 2
    sign = 1 << (fmt[0] + fmt[1])
    bits = a.view(UINT[a.itemsize])
    bits[3::4, k2:] = bits[3::4, :k2] ^ bits.dtype.type(sign)
    b[k2:, 1::4] = b[:k2, 1::4]
    return a, b


def flat(x, layout):
    """A 2-D matrix as the flat buffer of its row- or column-major storage."""
    return np.ascontiguousarray(x if layout == "row" else x.T).reshape(-1)


def tensor_core_launches():
    """wmma (CUDA), inline-PTX mma.sync/ldmatrix/stmatrix/movmatrix, and Triton tl.dot GEMMs."""
    L = []
    z = np.zeros
    wm, mg = "wmma.sm_90.ptx", "mma_gemm.sm_90.ptx"

    # la, lb, lc: the layouts of A, B and C as the kernel reads them.
    def wmma_float(name, seed, fmt, erange, acc_fmt, acc_erange, la, lb, lc, alpha, M=64, N=64, K=64,
                   grid=(2,), block=(128,)):
        r = Rng(seed)
        a, b = cancelling(spread(r, (M, K), fmt, *erange), spread(r, (K, N), fmt, *erange), fmt)
        c = spread(r, (M, N), acc_fmt, *acc_erange)
        L.append(Launch(name, wm, name, grid, block,
                        [("in", "A", flat(a, la)), ("in", "B", flat(b, lb)), ("in", "C", flat(c, lc)),
                         ("out", "D", z(M * N, acc_fmt[2])), ("s32", M), ("s32", N), ("s32", K), alpha]))

    # f16 subnormals (exponent field 0) included; the f16 accumulator stays below 2^15.
    wmma_float("wmma_f16_f16acc", 8001, F16, (0, 17), F16, (0, 20), "row", "col", "row", ("f32", 0.75))
    wmma_float("wmma_f16_f32acc_shared", 8002, F16, (0, 21), F32, (100, 150), "col", "row", "row", ("f32", -1.25),
               grid=(2, 2))
    wmma_float("wmma_bf16", 8003, BF16, (96, 150), F32, (100, 150), "row", "row", "col", ("f32", -1.5))
    wmma_float("wmma_tf32", 8004, F32, (107, 147), F32, (107, 147), "col", "row", "row", ("f32", 0.3))
    wmma_float("wmma_f64", 8005, F64, (983, 1063), F64, (983, 1063), "col", "row", "row", ("f64", -0.1))

    def wmma_int(name, seed, a, b, alpha, M=64, N=64, K=64):  # C is row-major in every integer kernel
        r = Rng(seed)
        c = r.u32(M * N).view(np.int32)  # full range: sums saturate or wrap
        L.append(Launch(name, wm, name, [2], [128],
                        [("in", "A", a), ("in", "B", b), ("in", "C", c), ("out", "D", z(M * N, np.int32)),
                         ("s32", M), ("s32", N), ("s32", K), ("s32", alpha)]))

    r = Rng(8006)  # A row-major, B column-major
    wmma_int("wmma_s8", 8106, r.u32(64 * 64).astype(np.uint8).view(np.int8),
             r.u32(64 * 64).astype(np.uint8).view(np.int8), 3)
    r = Rng(8007)  # A column-major, B row-major
    wmma_int("wmma_u8", 8107, r.u32(64 * 64).astype(np.uint8), r.u32(64 * 64).astype(np.uint8), -7)
    # 4-bit: A row-major 64 x 128, B column-major, 8 elements a word; 1-bit: K = 256, 32 a word.
    r = Rng(8008)
    wmma_int("wmma_s4", 8108, r.u32(64 * 128 // 8), r.u32(64 * 128 // 8), 5, K=128)
    r = Rng(8009)
    wmma_int("wmma_u4", 8109, r.u32(64 * 128 // 8), r.u32(64 * 128 // 8), -3, K=128)
    r = Rng(8010)
    wmma_int("wmma_b1_xor", 8110, r.u32(64 * 256 // 32), r.u32(64 * 256 // 32), 2, K=256)
    r = Rng(8011)
    wmma_int("wmma_b1_and", 8111, r.u32(64 * 256 // 32), r.u32(64 * 256 // 32), -1, K=256)

    # Inline-PTX GEMMs: blocks of 64x64, grid (N / 64, M / 64); A row-major, B row-major (s8:
    # column-major).
    r = Rng(8101)
    M, N, K = 128, 128, 64
    a, b = cancelling(spread(r, (M, K), F16, 0, 20), spread(r, (K, N), F16, 0, 20), F16)
    L.append(Launch("mma_gemm_f16", mg, "mma_gemm_f16", [N // 64, M // 64], [128],
                    [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "D", z(M * N, np.float32)),
                     ("out", "D16", z(M * N, np.float16)), ("s32", M), ("s32", N), ("s32", K)]))
    r = Rng(8102)
    M, N, K = 128, 64, 96
    a, b = cancelling(spread(r, (M, K), BF16, 96, 150), spread(r, (K, N), BF16, 96, 150), BF16)
    L.append(Launch("mma_gemm_bf16", mg, "mma_gemm_bf16", [N // 64, M // 64], [128],
                    [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "D", z(M * N, np.float32)),
                     ("out", "Dt", z(M * N, np.uint16)), ("s32", M), ("s32", N), ("s32", K)]))
    r = Rng(8103)
    M, N, K = 64, 64, 128
    L.append(Launch("mma_gemm_s8", mg, "mma_gemm_s8", [N // 64, M // 64], [128],
                    [("in", "A", r.u32(M * K).astype(np.uint8).view(np.int8)),
                     ("in", "B", r.u32(K * N).astype(np.uint8).view(np.int8)), ("out", "D", z(M * N, np.int32)),
                     ("s32", M), ("s32", N), ("s32", K)]))

    # Triton tl.dot: C (f32) = A @ B, 64 x 64 x 64, 32 x 32 tiles, grid (2, 2); row-major.
    meta = _triton_meta()
    for name, seed, fmt, erange in [("dot_f16", 8201, F16, (0, 22)), ("dot_bf16", 8202, BF16, (96, 150)),
                                    ("dot_tf32", 8203, F32, (107, 147)), ("dot_fp32_ieee", 8204, F32, (107, 147)),
                                    ("dot_fp8e4m3", 8205, E4M3, (0, 14)), ("dot_fp8e5m2", 8206, E5M2, (0, 30))]:
        r = Rng(seed)
        a, b = cancelling(spread(r, (64, 64), fmt, *erange), spread(r, (64, 64), fmt, *erange), fmt)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [2, 2], [m["block"]],
                        [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "C", z(64 * 64, np.float32)),
                         ("s32", 64), ("s32", 64), ("s32", 64), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"]))
    # The same GEMM software-pipelined (num_stages=3: cp.async, commit_group, wait_group) over
    # K = 256; and a masked one for sizes that are not whole tiles (48 x 208 @ 208 x 48), whose
    # cp.async copies read 0 source bytes for the lanes a mask turns off.
    for name, seed, (M, N, K) in [("dot_f16_pipelined", 8207, (64, 64, 256)), ("dot_f16_masked", 8208, (48, 48, 208))]:
        r = Rng(seed)
        a, b = cancelling(spread(r, (M, K), F16, 0, 22), spread(r, (K, N), F16, 0, 22), F16)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [-(-M // 32), -(-N // 32)], [m["block"]],
                        [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "C", z(M * N, np.float32)),
                         ("s32", M), ("s32", N), ("s32", K), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"]))
    # cuda:90: the same GEMMs on wgmma.mma_async (64 x 64 tiles, one warpgroup), 128 x 128 x 128;
    # pipelined over K = 256; masked for (M, N, K) = (112, 80, 208), not whole tiles (multiples of 16, as the kernel was compiled to assume).
    for name, seed, fmt, erange, (M, N, K) in [
            ("dot90_f16", 8301, F16, (0, 22), (128, 128, 128)), ("dot90_bf16", 8302, BF16, (96, 150), (128, 128, 128)),
            ("dot90_tf32", 8303, F32, (107, 147), (128, 128, 128)),
            ("dot90_fp8e4m3", 8304, E4M3, (0, 14), (128, 128, 128)), ("dot90_fp8e5m2", 8305, E5M2, (0, 30), (128, 128, 128)),
            ("dot90_f16_pipelined", 8306, F16, (0, 22), (128, 128, 256)), ("dot90_f16_masked", 8307, F16, (0, 22), (112, 80, 208))]:
        r = Rng(seed)
        a, b = cancelling(spread(r, (M, K), fmt, *erange), spread(r, (K, N), fmt, *erange), fmt)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [-(-M // 64), -(-N // 64)], [m["block"]],
                        [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "C", z(M * N, np.float32)),
                         ("s32", M), ("s32", N), ("s32", K), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"]))
    # Flash-attention forward (triton/attention.py), f16, 4 heads x 256 positions x 64, 1/8 scale.
    for name, seed in [("attention90", 8401), ("attention90_causal", 8402)]:
        r = Rng(seed)
        heads, seq, d = 4, 256, 64
        q, k, v = (spread(r, (heads * seq * d,), F16, 11, 16) for _ in range(3))
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [seq // 64, heads], [m["block"]],
                        [("in", "Q", q), ("in", "K", k), ("in", "V", v), ("out", "O", z(heads * seq * d, np.float16)),
                         ("s32", seq), ("f32", 0.125), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"]))

    # More cuda:90 tile shapes (triton/dot90_tiles.py), grid (M / BM, N / BN): two warpgroups a
    # program (128 x 64 tiles, 8 warps; num_stages 1, and 3 with cp.async and wait_group 1),
    # masked with 176 x 144 @ 144 x 112 (multiples of 16, not of the tile); m64n128k16 over
    # K = 256 (num_stages 3); fp8 with BK = 64, two m64n64k32 a step.
    for name, seed, fmt, erange, (M, N, K), (BM, BN) in [
            ("dot90_bf16_2wg", 8311, BF16, (96, 150), (256, 128, 64), (128, 64)),
            ("dot90_bf16_2wg_pipelined", 8312, BF16, (96, 150), (256, 128, 192), (128, 64)),
            ("dot90_f16_2wg_masked", 8313, F16, (0, 22), (176, 112, 144), (128, 64)),
            ("dot90_f16_n128_pipelined", 8314, F16, (0, 22), (128, 256, 256), (64, 128)),
            ("dot90_fp8e4m3_k64", 8315, E4M3, (0, 14), (64, 128, 128), (64, 64)),
            ("dot90_fp8e5m2_k64", 8316, E5M2, (0, 30), (64, 128, 128), (64, 64))]:
        r = Rng(seed)
        a, b = cancelling(spread(r, (M, K), fmt, *erange), spread(r, (K, N), fmt, *erange), fmt)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [-(-M // BM), -(-N // BN)], [m["block"]],
                        [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "C", z(M * N, np.float32)),
                         ("s32", M), ("s32", N), ("s32", K), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"]))
    # The Hopper numerics of Triton's test_core.py (triton/hopper_numerics.py): fp8 GEMMs with
    # max_num_imprecise_acc, whose PTX reads each wgmma's accumulators before its wait (ptxas
    # serializes those wgmma), 128 x 128 x 256; bf16 cumulative sums (each step rounds to bf16);
    # dot_scaled of e4m3 with e8m0 scales (2^-7 .. 2^7) by f16, 64 x 64 x 128.
    for name, seed, fmt, erange in [("imprecise90_fp8e4m3", 8321, E4M3, (0, 14)),
                                    ("imprecise90_fp8e5m2", 8322, E5M2, (0, 30))]:
        r = Rng(seed)
        M, N, K = 128, 128, 256
        a, b = cancelling(spread(r, (M, K), fmt, *erange), spread(r, (K, N), fmt, *erange), fmt)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [M // 64, N // 64], [m["block"]],
                        [("in", "A", flat(a, "row")), ("in", "B", flat(b, "row")), ("out", "C", z(M * N, np.float32)),
                         ("s32", M), ("s32", N), ("s32", K), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"],
                        undefined="async: register read before an asynchronous operation's completion"))
    for name, seed, shape in [("cumsum90_bf16_row", 8323, (1, 1024)), ("cumsum90_bf16_cols_reverse", 8324, (32, 32))]:
        r = Rng(seed)
        x = spread(r, shape, BF16, 118, 130)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [1], [m["block"]],
                        [("in", "X", x.reshape(-1)), ("out", "Z", z(shape[0] * shape[1], np.float32)),
                         ("u64", 0), ("u64", 0)], shared_bytes=m["shared_bytes"]))
    r = Rng(8325)
    a, b = spread(r, (64, 128), E4M3, 0, 15), spread(r, (128, 64), F16, 5, 22)
    scales = (r.raw(64 * 4) % 15 + 120).astype(np.uint8)
    m = meta["scaled_dot90_e4m3_f16"]
    L.append(Launch("triton_scaled_dot90_e4m3_f16", m["ptx"], m["kernel"], [1], [m["block"]],
                    [("in", "A", flat(a, "row")), ("in", "SA", scales), ("in", "B", flat(b, "row")),
                     ("out", "C", z(64 * 64, np.float32)), ("u64", 0), ("u64", 0)], shared_bytes=m["shared_bytes"]))
    # The tutorial-style flash attention (triton/fused_attention.py): (heads, N_CTX, 64) f16,
    # contiguous; Q and K with |x| in [2^-6, 4), V down to subnormals; outputs O (f16) and the
    # rows' log2-sum-exp2 M (f32); grid (N_CTX / BLOCK_M, heads). Not causal: 3 heads, BLOCK
    # 64 x 64, 4 warps; causal: 2 heads, BLOCK 128 x 32, 8 warps (m64n32k16 for Q K^T).
    for name, seed, heads, n_ctx, block_m in [("fused_attn90", 8411, 3, 256, 64),
                                              ("fused_attn90_causal", 8412, 2, 256, 128)]:
        r = Rng(seed)
        q, k = spread(r, (heads, n_ctx, 64), F16, 9, 16), spread(r, (heads, n_ctx, 64), F16, 9, 16)
        v = spread(r, (heads, n_ctx, 64), F16, 0, 17)
        m = meta[name]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [n_ctx // block_m, heads], [m["block"]],
                        [("in", "Q", q.reshape(-1)), ("in", "K", k.reshape(-1)), ("in", "V", v.reshape(-1)),
                         ("out", "O", z(heads * n_ctx * 64, np.float16)), ("out", "M", z(heads * n_ctx, np.float32)),
                         ("f32", 0.125), ("s32", n_ctx), ("u64", 0), ("u64", 0)],
                        shared_bytes=m["shared_bytes"]))
    # Host-side tensor descriptors (triton/dot90_desc.py): every tile by TMA, 128 x 128 x 96; the
    # maps built as Triton's launcher builds them from the kernel's tensordesc_meta.
    # tensordesc_meta's element types are Triton's device numbering: its launcher maps 8, 9, 10
    # to CUDA's 10, 8, 9 (triton/backends/nvidia/driver.py TMA_DTYPE_DEVICE_TO_HOST)
    cu_types = {6: ("float16", F16), 7: ("float32", F32), 10: ("bfloat16", BF16)}
    swizzles = {0: "none", 1: "32B", 2: "64B", 3: "128B"}
    for name, seed, fmt, erange in [("dot90_desc_f16", 8501, F16, (0, 22)), ("dot90_desc_f16_pipelined", 8502, F16, (0, 22)),
                                    ("dot90_desc_bf16", 8503, BF16, (96, 150))]:
        r = Rng(seed)
        M, N, K = 128, 128, 96
        a, b = cancelling(spread(r, (M, K), fmt, *erange), spread(r, (K, N), fmt, *erange), fmt)
        c = z(M * N, np.float32)
        m = meta[name]
        args = []
        for (buf, arr, rows, cols, out), d in zip([("A", flat(a, "row"), M, K, False), ("B", flat(b, "row"), K, N, False),
                                                   ("C", c, M, N, True)], m["tensordesc"]):
            size = np.dtype(cu_types[d["elem_type"]][1][2]).itemsize
            args += [("tensormap", {"buffer": buf, "dtype": cu_types[d["elem_type"]][0], "dims": [cols, rows],
                                    "strides": [cols * size], "box": d["block"][::-1],
                                    "swizzle": swizzles[d["swizzle"]]}, arr, out),
                     ("s32", rows), ("s32", cols), ("u64", cols), ("u64", 1)]  # Triton's shape and strides
        args += [("s32", K), ("u64", 0), ("u64", 0)]
        L.append(Launch("triton_" + name, m["ptx"], m["kernel"], [M // 64, N // 64], [m["block"]], args,
                        shared_bytes=m["shared_bytes"]))
    return L


if __name__ == "__main__":
    # launches.py --names: one launch name a line (CMake registers a test each).
    # launches.py --manifests DIR: DIR/<name>/launch.json plus its buffers, for
    # running one launch by hand: ptxvm run DIR/<name>/launch.json
    import sys
    if sys.argv[1:2] == ["--manifests"] and len(sys.argv) == 3:
        for l in all_launches():
            d = os.path.join(sys.argv[2], l.name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "launch.json"), "w") as f:
                json.dump(l.manifest(os.path.join(PTX_DIR, l.ptx), d), f, indent=1)
    elif sys.argv[1:] == ["--names"]:
        print("\n".join(l.name for l in all_launches()))
    else:
        sys.exit("usage: launches.py --names | --manifests DIR")
