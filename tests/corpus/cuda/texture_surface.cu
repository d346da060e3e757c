// Texture and surface objects: tex1Dfetch, tex1D, tex2D, tex3D, layered and
// cubemap fetches, tex2DLod/Grad/Gather, and surf1D/2D/3D read/write.
// corpus-archs: auto:4

extern "C" __global__ void tex_fetch_1d(cudaTextureObject_t t_lin, cudaTextureObject_t t_arr, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = tex1Dfetch<float>(t_lin, i);
    float4 b = tex1Dfetch<float4>(t_lin, i / 4);
    int c = tex1Dfetch<int>(t_lin, i + 1);
    float d = tex1D<float>(t_arr, (i + 0.5f) / n);
    out[i] = a + b.x + b.w + (float)c + d;
}

extern "C" __global__ void tex_sample_2d(cudaTextureObject_t tex, float4 *out, int w, int h, float angle)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
    float tu = u * cosf(angle) - v * sinf(angle) + 0.5f;
    float tv = v * cosf(angle) + u * sinf(angle) + 0.5f;
    float4 s = tex2D<float4>(tex, tu, tv);
    float4 l = tex2DLod<float4>(tex, tu, tv, 1.5f);
    float4 g = tex2DGrad<float4>(tex, tu, tv, make_float2(1.f / w, 0.f), make_float2(0.f, 1.f / h));
    float4 gt = tex2Dgather<float4>(tex, tu, tv, 1);
    out[y * w + x] = make_float4(s.x + l.x, s.y + g.y, s.z + gt.z, s.w + gt.w);
}

extern "C" __global__ void tex_volume(cudaTextureObject_t vol, cudaTextureObject_t layered, cudaTextureObject_t cube, float *out, int n, int layer)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float t = (i + 0.5f) / n;
    float a = tex3D<float>(vol, t, 1.f - t, 0.5f);
    float b = tex2DLayered<float>(layered, t, t, layer);
    float c = texCubemap<float>(cube, t - 0.5f, 0.5f, -0.25f);
    float d = tex1DLayered<float>(layered, t, layer);
    float e = tex3DLod<float>(vol, t, t, t, 0.f);
    out[i] = a + b + c + d + e;
}

extern "C" __global__ void tex_uchar_normalized(cudaTextureObject_t tex, unsigned char *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float4 c = tex2D<float4>(tex, x + 0.5f, y + 0.5f);
    float lum = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
    out[y * w + x] = (unsigned char)__float2uint_rn(__saturatef(lum) * 255.f);
    uchar4 raw = tex2D<uchar4>(tex, x, y);
    if (raw.w == 0) out[y * w + x] = 0;
}

extern "C" __global__ void surf_copy_2d(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float4 v;
    surf2Dread(&v, src, x * sizeof(float4), y);
    v.x = 1.f - v.x;
    surf2Dwrite(v, dst, x * sizeof(float4), y);
    unsigned char b = surf2Dread<unsigned char>(src, x, y, cudaBoundaryModeClamp);
    surf2Dwrite(b, dst, x, h - 1 - y, cudaBoundaryModeZero);
}

extern "C" __global__ void surf_1d_3d(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, int n, int depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = surf1Dread<int>(s1, i * 4);
    surf1Dwrite(v * 2, s1, i * 4);
    for (int z = 0; z < depth; ++z) {
        short2 t = surf3Dread<short2>(s3, i * 4, 0, z);
        t.x += (short)z;
        surf3Dwrite(t, s3, i * 4, 0, z);
    }
    float f = surf2DLayeredread<float>(sl, i * 4, 0, 1);
    surf2DLayeredwrite(f + 1.f, sl, i * 4, 0, 0);
}
