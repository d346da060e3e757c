/* A stand-in for the real driver, for trace_selftest.sh: a few functions under driver names
   (fake.h), returning what the test can predict. */
#include <stdarg.h>
#include <string.h>

#include "fake.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int cuInit(unsigned flags) {
  return flags ? 1 : 0;
}

EXPORT int cuDriverGetVersion(int* version) {
  *version = FAKE_DRIVER_VERSION;
  return 0;
}

/* The real signature; the hash of the arguments goes to *params[0]; grid x 0 fails with 1. */
EXPORT int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned shmem, void* stream, void** params, void** extra) {
  *(uint64_t*)params[0] = fake_launch_hash(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
  return gx ? 0 : 1;
}

/* Ten doubles and nine integer-class arguments: two of each on the stack. */
EXPORT int cuCtxSetLimit(double d0, int i0, double d1, int i1, double d2, int i2, double d3, int i3,
                         double d4, int i4, double d5, int i5, double d6, int i6, double d7, int i7,
                         double d8, double d9, double* out) {
  const double d[10] = {d0, d1, d2, d3, d4, d5, d6, d7, d8, d9};
  const int i[8] = {i0, i1, i2, i3, i4, i5, i6, i7};
  *out = fake_mixed_sum(d, i);
  return 0;
}

/* Variadic: n doubles, summed into *out; needs al (the vector register count) intact. */
EXPORT int cuProfilerStart(double* out, int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int k = 0; k < n; k++) s += va_arg(ap, double);
  va_end(ap);
  *out = s;
  return 0;
}

/* Returns al as it came: the vector register count of a variadic call. */
EXPORT __attribute__((naked)) int cuProfilerStop(void) {
  __asm__("movzbl %al, %eax\n\tret");
}

/* Results in rax:rdx and in rax:xmm0. */
EXPORT struct fake_pair cuCtxGetLimit(int64_t v) {
  return (struct fake_pair){0, v * 3};
}

EXPORT struct fake_mixed cuCtxGetFlags(double v) {
  return (struct fake_mixed){0, v * 3};
}

/* Calls fn(data) before returning; returns the "stream" as the result. */
EXPORT int cuLaunchHostFunc(void* stream, void (*fn)(void*), void* data) {
  fn(data);
  return (int)(intptr_t)stream;
}

static int secret(int x) {
  return x + 1;
}

/* Known names give an exported function, "cuSecret" one that is not exported; versions above
   the driver's fail with 1 and unknown names give null with status 1, as the real driver does.
   The dynamic linker binds the addresses in known[]: with the trace library preloaded they are
   its entry points, as in a driver whose references to its own functions can be interposed. */
EXPORT int cuGetProcAddress_v2(const char* symbol, void** fn, int version, uint64_t flags,
                               int* status);

static int lookup(const char* symbol, void** fn, int version, int* status) {
  static const struct {
    const char* name;
    void* fn;
  } known[] = {{"cuInit", (void*)cuInit},
               {"cuLaunchKernel", (void*)cuLaunchKernel},
               {"cuGetProcAddress", (void*)cuGetProcAddress_v2},
               {"cuSecret", (void*)secret}};
  *fn = 0;
  if (version > FAKE_DRIVER_VERSION) return 1;
  for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(symbol, known[i].name) == 0) *fn = known[i].fn;
  if (status) *status = *fn ? 0 : 1;
  return 0;
}

EXPORT int cuGetProcAddress_v2(const char* symbol, void** fn, int version, uint64_t flags,
                               int* status) {
  (void)flags;
  return lookup(symbol, fn, version, status);
}

EXPORT int cuGetProcAddress(const char* symbol, void** fn, int version, uint64_t flags) {
  (void)flags;
  return lookup(symbol, fn, version, 0);
}

/* Keeps fn, to be called as this library is finalised (after the trace library). */
static void (*at_teardown)(void);

EXPORT int cuStreamAddCallback(void (*fn)(void)) {
  at_teardown = fn;
  return 0;
}

__attribute__((destructor)) static void teardown(void) {
  if (at_teardown) at_teardown();
}

static int table_fn(void) {
  return 42;
}

/* A table with its size in slot 0 for the CUDART_INTERFACE UUID, a null-terminated list of
   functions for the context-local-storage one, 1 for any other. */
EXPORT int cuGetExportTable(const void** table, const unsigned char* uuid) {
  static const void* sized[13] = {(void*)(uintptr_t)sizeof sized, (void*)table_fn};
  static const void* listed[4] = {(void*)table_fn, (void*)table_fn, (void*)table_fn, 0};
  *table = uuid[0] == 0x6b ? (const void*)sized : uuid[0] == 0xc6 ? (const void*)listed : 0;
  return *table ? 0 : 1;
}
