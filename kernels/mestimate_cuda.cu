/*
 * mestimate_cuda kernels: block motion vectors, as mestimate finds them
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
 * The searches are those of me_search.h, which tests/harness/checkme.c proves equal
 * to libavfilter/motion_estimation.c's on the CPU:
 *
 *   mestimate_block  one thread per block, any per-block method
 *                    (me_search_block())
 *   mestimate_esa    one thread block of MESTIMATE_ESA_THREADS threads per
 *                    block: each thread takes every MESTIMATE_ESA_THREADS-th
 *                    candidate of the window, and the smallest me_esa_key()
 *                    wins, which is ff_me_search_esa's choice (mb_size <= 256)
 *   mestimate_esa_staged  the same, reading a copy of the block and its
 *                    window in shared memory (me_esa_stage())
 *   mestimate_bmN    esa for mb_size N = 8, 16, 32, 64 through bm_search()
 *                    of block_match.h, the block matching the c63 encoder's
 *                    c63_meN use too: four candidate rows a work item
 *                    (c63_meN: N, C63_ME_NR(r)),
 *                    __vsadu4 over a window staged as words; used where its
 *                    shared memory (mestimate_bm_smem()) fits in
 *                    MESTIMATE_STAGE_MAX bytes, else mestimate_esa_staged
 *                    or mestimate_esa
 *
 * Both write one (x, y) pair of int per block, in raster order of the
 * blocks, at mvs: the position of the best match in the reference.
 */

#include "cuda_compat.h"
#include "me_search.h"
#include "mestimate_cuda.h"
#include "block_match.h"

/*
 * The end of an esa: thread t's least key k (of the candidates it took)
 * into the least of the thread block's, reduced in best
 * (MESTIMATE_ESA_THREADS entries of shared memory; best[t] is only ever
 * thread t's, so it stays k), and thread 0 writes its vector as that of
 * block (bx, by) of a row of b_width.
 */
static __device__ __forceinline__ void esa_reduce(unsigned long long *best, unsigned long long k,
                                                  int t, const MEWindow *w, int x_mb, int y_mb,
                                                  int bx, int by, int b_width, int *mvs)
{
    best[t] = k;
    __syncthreads();
    for (int step = MESTIMATE_ESA_THREADS / 2; step > 0; step >>= 1) {
        if (t < step && best[t + step] < k) {
            k       = best[t + step];
            best[t] = k;
        }
        __syncthreads();
    }
    if (!t) {
        int mv[2];
        const int i = by * b_width + bx;
        me_esa_pos(w, x_mb, y_mb, best[0], mv);
        mvs[2 * i]     = mv[0];
        mvs[2 * i + 1] = mv[1];
    }
}

/*
 * A filter runs one of these, so that the driver, which compiles a module
 * whole when it is loaded, compiles only that: the build makes a module of
 * mestimate_block (MESTIMATE_MODULE_BLOCK defined), of mestimate_esa and
 * mestimate_esa_staged (MESTIMATE_MODULE_ESA) and of each mestimate_bmN
 * (MESTIMATE_MODULE_BM defined as N); with none of them defined, the
 * module has every kernel.
 */
#if defined(MESTIMATE_MODULE_BLOCK) || defined(MESTIMATE_MODULE_ESA) || defined(MESTIMATE_MODULE_BM)
#define MESTIMATE_ALL 0
#else
#define MESTIMATE_ALL 1
#endif

extern "C" {

#if MESTIMATE_ALL || defined(MESTIMATE_MODULE_BLOCK)
__global__ void mestimate_block(const unsigned char *cur, const unsigned char *ref,
                                int linesize, int mb_size, int log2_mb, int search_param,
                                int b_width, int b_height, int method, int *mvs)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    MESearch s;
    int mv[2], x_mb, y_mb;

    if (i >= b_width * b_height)
        return;
    me_search_setup(&s, cur, ref, linesize, mb_size, search_param,
             (b_width - 1) << log2_mb, (b_height - 1) << log2_mb);
    x_mb = (i % b_width) << log2_mb;
    y_mb = (i / b_width) << log2_mb;
    mv[0] = x_mb;
    mv[1] = y_mb;
    me_search_block(&s, method, x_mb, y_mb, mv);
    mvs[2 * i]     = mv[0];
    mvs[2 * i + 1] = mv[1];
}
#endif

#if MESTIMATE_ALL || defined(MESTIMATE_MODULE_ESA)
__global__ void __launch_bounds__(MESTIMATE_ESA_THREADS)
mestimate_esa(const unsigned char *cur, const unsigned char *ref,
              int linesize, int mb_size, int log2_mb, int search_param,
              int b_width, int b_height, int *mvs)
{
    __shared__ unsigned long long best[MESTIMATE_ESA_THREADS];
    const int t = threadIdx.x;
    const int bx = blockIdx.x, by = blockIdx.y;
    const int x_mb = bx << log2_mb, y_mb = by << log2_mb;
    unsigned long long k = ~0ULL;
    unsigned int n, c;
    MEWindow w;
    MESearch s;

    me_search_setup(&s, cur, ref, linesize, mb_size, search_param,
             (b_width - 1) << log2_mb, (b_height - 1) << log2_mb);
    w = me_window(&s, x_mb, y_mb);
    n = me_esa_count(&w);
    for (c = t; c < n; c += MESTIMATE_ESA_THREADS) {
        unsigned long long kc = me_esa_key(&s, &w, x_mb, y_mb, c);
        k = kc < k ? kc : k;
    }
    esa_reduce(best, k, t, &w, x_mb, y_mb, bx, by, b_width, mvs);
}

/* mestimate_esa with the block and its window first copied to shared memory
 * (me_esa_stage()): stride and the dynamic shared size from
 * me_esa_stage_size(), as the filter computes them. */
__global__ void __launch_bounds__(MESTIMATE_ESA_THREADS)
mestimate_esa_staged(const unsigned char *cur, const unsigned char *ref,
                     int linesize, int mb_size, int log2_mb, int search_param,
                     int b_width, int b_height, int stride, int *mvs)
{
    extern __shared__ unsigned char stage[];
    __shared__ unsigned long long best[MESTIMATE_ESA_THREADS];
    const int t = threadIdx.x;
    const int bx = blockIdx.x, by = blockIdx.y;
    const int x_mb = bx << log2_mb, y_mb = by << log2_mb;
    unsigned long long k = ~0ULL;
    unsigned int n, c;
    MEWindow w;
    MESearch s, st;

    me_search_setup(&s, cur, ref, linesize, mb_size, search_param,
             (b_width - 1) << log2_mb, (b_height - 1) << log2_mb);
    w = me_window(&s, x_mb, y_mb);
    me_esa_stage(&s, &w, x_mb, y_mb, stage, stride, t, MESTIMATE_ESA_THREADS, &st);
    __syncthreads();
    n = me_esa_count(&w);
    for (c = t; c < n; c += MESTIMATE_ESA_THREADS) {
        unsigned long long kc = me_esa_key_staged(&st, &w, x_mb, y_mb, c);
        k = kc < k ? kc : k;
    }
    esa_reduce(best, k, t, &w, x_mb, y_mb, bx, by, b_width, mvs);
}

#endif

/* mestimate_bmN: grid b_width x b_height, MESTIMATE_ESA_THREADS threads,
 * stride and the dynamic shared size from mestimate_bm_smem() */
#define MESTIMATE_BM(N)                                                              \
__global__ void __launch_bounds__(MESTIMATE_ESA_THREADS)                             \
mestimate_bm ## N(const unsigned char *cur, const unsigned char *ref, int linesize,  \
                  int search_param, int b_width, int b_height, int stride, int *mvs) \
{                                                                                    \
    extern __shared__ __align__(16) unsigned int bm_smem[];                          \
    const int bx = blockIdx.x, by = blockIdx.y;                                      \
    const int x_mb = bx * N, y_mb = by * N;                                          \
    unsigned long long best;                                                         \
    MEWindow w;                                                                      \
    MESearch s;                                                                      \
                                                                                     \
    me_search_setup(&s, cur, ref, linesize, N, search_param,                                \
             (b_width - 1) * N, (b_height - 1) * N);                                 \
    w = me_window(&s, x_mb, y_mb);                                                   \
    best = bm_search<N, true, false, unsigned long long>(cur, linesize, ref, linesize, b_width * N,      \
                                     b_height * N, x_mb, y_mb, w.x_min, w.y_min,     \
                                     w.x_max - w.x_min + 1, w.y_max - w.y_min + 1,   \
                                     stride, bm_smem);                               \
    if (!threadIdx.x) {                                                              \
        int mv[2];                                                                   \
        const int i = by * b_width + bx;                                             \
        me_esa_pos(&w, x_mb, y_mb, best, mv);                                        \
        mvs[2 * i]     = mv[0];                                                      \
        mvs[2 * i + 1] = mv[1];                                                      \
    }                                                                                \
}

#if MESTIMATE_ALL || MESTIMATE_MODULE_BM == 8
MESTIMATE_BM(8)
#endif
#if MESTIMATE_ALL || MESTIMATE_MODULE_BM == 16
MESTIMATE_BM(16)
#endif
#if MESTIMATE_ALL || MESTIMATE_MODULE_BM == 32
MESTIMATE_BM(32)
#endif
#if MESTIMATE_ALL || MESTIMATE_MODULE_BM == 64
MESTIMATE_BM(64)
#endif

}
