// Warp-level primitives: ballot, any/all, shuffles of every kind, match, reduce.
#include "check.h"

__global__ void warp(unsigned* out) {
  const unsigned lane = threadIdx.x;
  out[0] = __ballot_sync(0xffffffff, lane % 3 == 0);
  out[1] = __any_sync(0xffffffff, lane == 17);
  out[2] = __all_sync(0xffffffff, lane < 31);
  const int up = __shfl_up_sync(0xffffffff, int(lane) * 10, 2);
  const int xr = __shfl_xor_sync(0xffffffff, int(lane), 5);
  const int idx = __shfl_sync(0xffffffff, int(lane) * 7, 31 - int(lane));
  out[3 + lane] = unsigned(up + xr * 1000 + idx * 100000);
  const unsigned group = __match_any_sync(0xffffffff, lane / 8);
  if (lane == 31) out[35] = group;
  out[36] = __reduce_add_sync(0xffffffff, lane);
  out[37] = __reduce_max_sync(0xffffffff, lane * 3 % 31);
}

int main() {
  unsigned* d;
  CHECK(cudaMalloc(&d, 38 * 4));
  warp<<<1, 32>>>(d);
  unsigned got[38];
  CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
  unsigned ballot = 0;
  for (int l = 0; l < 32; l += 3) ballot |= 1u << l;
  EXPECT(got[0] == ballot && got[1] == 1 && got[2] == 0);
  for (int l = 0; l < 32; ++l) {
    const int up = (l >= 2 ? l - 2 : l) * 10, xr = l ^ 5, idx = (31 - l) * 7;
    EXPECT(got[3 + l] == unsigned(up + xr * 1000 + idx * 100000));
  }
  EXPECT(got[35] == 0xff000000u);  // lane 31's group: lanes 24-31
  EXPECT(got[36] == 496 && got[37] == 30);
  return pass();
}
