/* What the fake driver (fake_libcuda.c) computes, shared with the test (selftest.c) that checks
   the answers which come back through the trace library. Its functions borrow driver names but
   have signatures of their own, chosen to exercise the calling convention. */
#include <stdint.h>

#define FAKE_DRIVER_VERSION 13000

static inline uint64_t fake_mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 0x100000001b3ull;
}

static inline uint64_t fake_launch_hash(const void* f, unsigned gx, unsigned gy, unsigned gz,
                                        unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                        const void* stream, void** params, void** extra) {
  uint64_t h = 0xcbf29ce484222325ull;
  uint64_t v[] = {
      (uintptr_t)f,    gx, gy, gz, bx, by, bz, shmem, (uintptr_t)stream, (uintptr_t)params,
      (uintptr_t)extra};
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) h = fake_mix(h, v[i] + i);
  return h;
}

static inline double fake_mixed_sum(const double d[10], const int i[8]) {
  double s = 0;
  for (int k = 0; k < 10; k++) s += d[k] * (k + 1);
  for (int k = 0; k < 8; k++) s += i[k] * 1000.0 * (k + 1);
  return s;
}

struct fake_pair {
  int64_t rc, value;
};

struct fake_mixed {
  int64_t rc;
  double value;
};
