/*
 * checkcuda: what the tests of each component share
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * checkcuda.cpp holds main() and what the component's files share: the
 * driver, the random numbers, device buffers, launches, the report of a
 * test, the pictures' content, the timing. Each component's kernels have
 * a file of their own (checkcuda_NAME.cpp) with the entry points below:
 * _init() loads its PTX, _test() runs its tests, _bench() its benchmark,
 * _uninit() unloads it.
 */

#ifndef TESTS_CHECKCUDA_H
#define TESTS_CHECKCUDA_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <vector>

#include <ffnvcodec/dynlink_loader.h>

typedef CUresult CUDAAPI tcuEventElapsedTime(float *ms, CUevent start, CUevent end);
typedef CUresult CUDAAPI tcuMemAllocHost(void **pp, size_t bytesize);
typedef CUresult CUDAAPI tcuMemFreeHost(void *p);

extern CudaFunctions *cu;
extern tcuEventElapsedTime *event_elapsed;
extern tcuMemAllocHost *mem_alloc_host;     ///< NULL without pinned memory
extern tcuMemFreeHost  *mem_free_host;
/* --small: only cases of at most this many pixels (for slow checkers) */
extern long max_area;

#define CK(x) do {                                                          \
        CUresult err_ = (x);                                                \
        if (err_ != CUDA_SUCCESS) {                                         \
            const char *name_ = "?";                                        \
            cu->cuGetErrorName(err_, &name_);                               \
            fprintf(stderr, "checkcuda: %s failed: %s (%s line %d)\n", #x,  \
                    name_, __FILE__, __LINE__);                             \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

uint32_t rnd(void);
double now_us(void);

struct DevBuf {
    CUdeviceptr p;
    size_t size;
    explicit DevBuf(size_t n) : p(0), size(n ? n : 1) { CK(cu->cuMemAlloc(&p, size)); }
    ~DevBuf() { cu->cuMemFree(p); }
    void up(const void *h, size_t n) { CK(cu->cuMemcpyHtoD(p, h, n)); }
    void down(void *h, size_t n) { CK(cu->cuMemcpyDtoH(h, p, n)); }
};

void launch3(CUfunction f, int gx, int gy, int gz, int tx, int ty, unsigned shmem, void **args);
void launch(CUfunction f, int gx, int gy, int tx, int ty, unsigned shmem, void **args);

/** One test's line of output, counted as passed or failed. */
void report(const char *name, bool ok, const std::string &detail);

/* Kinds of plane content: ties and flat areas matter for the search;
 * EDGES (a black and a white half in every 8 columns, against its inverse
 * as the reference) gives the largest AC levels. */
enum Content { RANDOM, FLAT, SMOOTH, FEW_LEVELS, EDGES };

void fill(std::vector<uint8_t> &v, int w, int h, Content c, int shift);

/** Milliseconds from a to b (0 without cuEventElapsedTime). */
float time_ms(CUevent a, CUevent b);

/** The byte absolute differences a second that a tight __vsadu4 loop
 *  reaches (c63_peak_sad of checkcuda_bench.cu), timed with e0, e1. */
double measure_peak_rate(CUevent e0, CUevent e1);

/** A PTX embedded by bin2c, inflated where gzip-compressed. */
std::string inflate_ptx(const unsigned char *d, unsigned len);

/** The PTX file at path, or without one the embedded PTX d. */
std::string load_ptx(const char *path, const unsigned char *d, unsigned len);

/* c63_cuda's kernels (checkcuda_c63.cpp); ptx_path: --ptx, the encoder's
 * module (c63_cuda_enc.cu) from a file, else the embedded PTX. _bench() returns the peak rate, which it measures. */
int    checkcuda_c63_init(const char *ptx_path);
void   checkcuda_c63_test(void);
double checkcuda_c63_bench(CUevent e0, CUevent e1);
void   checkcuda_c63_bench_entropy(void);
void   checkcuda_c63_uninit(void);

/* drawtext_cuda (checkcuda_drawtext.cpp) */
void checkcuda_drawtext_init(void);
void checkcuda_drawtext_test(void);
void checkcuda_drawtext_bench(void);
void checkcuda_drawtext_uninit(void);

/* mestimate_cuda (checkcuda_mestimate.cpp) */
void checkcuda_mestimate_init(void);
void checkcuda_mestimate_test(void);
void checkcuda_mestimate_bench(CUevent e0, CUevent e1, double peak_rate);
void checkcuda_mestimate_uninit(void);

#endif /* TESTS_CHECKCUDA_H */
