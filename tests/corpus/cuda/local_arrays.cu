// Thread-local arrays with dynamic indexing (forced into .local), alloca,
// and a per-thread stack-based expression evaluator.
// corpus-archs: auto:4
#include <alloca.h>

extern "C" __global__ void local_lookup(const int *idx, const float *vals, float *out, int n)
{
    float table[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < 64; ++k) table[k] = vals[(i + k) % n] * k;
    float acc = 0.f;
    for (int k = 0; k < 16; ++k) acc += table[idx[(i + k) % n] & 63];
    table[idx[i] & 63] = acc;
    out[i] = table[(idx[i] + 1) & 63] + table[idx[i] & 63];
}

extern "C" __global__ void insertion_sort_local(const int *in, int *out, int len)
{
    int a[24];
    const int *src = in + (blockIdx.x * blockDim.x + threadIdx.x) * len;
    int m = min(len, 24);
    for (int k = 0; k < m; ++k) {
        int v = src[k], j = k - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; --j; }
        a[j + 1] = v;
    }
    int *dst = out + (blockIdx.x * blockDim.x + threadIdx.x) * len;
    for (int k = 0; k < m; ++k) dst[k] = a[k];
}

extern "C" __global__ void alloca_scratch(const float *in, float *out, int n, int scratch)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float *buf = static_cast<float *>(alloca(sizeof(float) * scratch));
    for (int k = 0; k < scratch; ++k) buf[k] = in[(i + k) % n];
    float s = 0.f;
    for (int k = scratch - 1; k >= 0; --k) s = s * 0.5f + buf[k];
    out[i] = s;
}

// Reverse-Polish evaluator: opcodes in global memory, operand stack local.
enum Op { PUSH = 0, ADD, SUB, MUL, DIV, DUP, SWAP, END };

extern "C" __global__ void rpn_eval(const int *code, const float *consts, const float *xs, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float st[16];
    int sp = 0;
    for (int pc = 0; pc < 256; ++pc) {
        int op = code[pc] & 0xff, arg = code[pc] >> 8;
        if (op == END) break;
        switch (op) {
        case PUSH: st[sp++] = arg < 0 ? xs[i] : consts[arg]; break;
        case ADD: --sp; st[sp - 1] += st[sp]; break;
        case SUB: --sp; st[sp - 1] -= st[sp]; break;
        case MUL: --sp; st[sp - 1] *= st[sp]; break;
        case DIV: --sp; st[sp - 1] /= st[sp]; break;
        case DUP: st[sp] = st[sp - 1]; ++sp; break;
        case SWAP: { float t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
        }
        sp &= 15;
    }
    out[i] = sp > 0 ? st[sp - 1] : 0.f;
}
