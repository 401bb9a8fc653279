/*
 * checkbm: the block matching of kernels/block_match.h (c63_me and
 * mestimate_cuda's esa on the GPU) run on the CPU, against mestimate's
 * ff_me_search_esa and against the c63 search of docs/c63-format.md
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
 * Usage: checkbm
 *
 * bm_search() is compiled for the host with the CUDA built-ins it uses
 * emulated (__byte_perm, __vsadu4, the shuffles) and run with one thread
 * per thread block, which then stages the window, scores every work item
 * and reduces alone: the same code path, in order. Shared memory is a
 * vector of exactly the size the launch gives, so that a read past it
 * shows under the sanitizers (make check-asan).
 *
 * - mestimate_bmN's instance (N = 8, 16, 32, 64; 64-bit keys; rank 0 for
 *   the block's own position; byte loads) against ff_me_search_esa with
 *   the context vf_mestimate.c sets up, for search_param 1, 4, 7 and 32,
 *   frame sizes that are not multiples of the block, line sizes that are
 *   not multiples of 4, and four kinds of content (random, a shifted
 *   gradient, flat, a few levels: many equal costs).
 * - c63_me's instances (8x8, 32-bit keys, word loads; 8 and 16 candidate
 *   rows a work item, the kernels c63_me8 and c63_me16) against the search
 *   of docs/c63-format.md section 7.3 written out directly, for ranges 0 to
 *   64.
 *
 * Prints one line per case and "N passed, N failed"; exit status 1 on any
 * mismatch.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

extern "C" {
#include "libavutil/common.h"
#include "libavfilter/motion_estimation.h"
}

/* the CUDA built-ins bm_search() uses, for one thread */
struct BMDim3 { unsigned x, y, z; };
static BMDim3 threadIdx = { 0, 0, 0 }, blockDim = { 1, 1, 1 };
#define __shared__ static
#define __syncthreads() do { } while (0)
static unsigned __shfl_down_sync(unsigned, unsigned v, int) { return v; }
static unsigned __byte_perm(unsigned a, unsigned b, unsigned s)
{
    const unsigned long long x = (unsigned long long)b << 32 | a;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((x >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
static unsigned ffc_vsadu4_add(unsigned a, unsigned b, unsigned c)
{
    for (int i = 0; i < 4; i++) {
        const int x = (a >> (8 * i)) & 255, y = (b >> (8 * i)) & 255;
        c += x > y ? x - y : y - x;
    }
    return c;
}
#define KERNEL_EMULATE 1
#include "cuda_kernels/block_match.h"
#include "cuda_kernels/me_search.h"
#include "cuda_kernels/mestimate_cuda.h"

static uint32_t rng_state = 1;
static unsigned rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static int passed, failed;

static void report(const char *name, const char *detail)
{
    if (detail[0]) {
        failed++;
        printf("FAILED: %s: %s\n", name, detail);
    } else {
        passed++;
        printf("ok: %s\n", name);
    }
}

static void fill(std::vector<uint8_t> &cur, std::vector<uint8_t> &ref, int ls, int h, int content)
{
    for (int i = 0; i < ls * h; i++) {
        const int x = i % ls, y = i / ls;
        switch (content) {
        case 0:  ref[i] = rnd() & 255;               cur[i] = rnd() & 255; break;
        case 1:  ref[i] = (x * 3 + y * 5) & 255;     cur[i] = ((x + 2) * 3 + (y + 1) * 5 + (rnd() & 3)) & 255; break;
        case 2:  ref[i] = 77;                        cur[i] = 77; break;
        default: ref[i] = (rnd() & 3) * 60;          cur[i] = (rnd() & 3) * 60; break;
        }
    }
}

template <int BS> static void test_mestimate(int w, int h, int p, int content)
{
    const int log2_mb = av_log2(BS), bw = w >> log2_mb, bh = h >> log2_mb, ls = w + 29;
    std::vector<uint8_t> cur((size_t)ls * h), ref((size_t)ls * h);
    AVMotionEstContext me;
    MESearch s;
    int stride;
    unsigned bytes;
    char name[128], detail[256] = "";

    snprintf(name, sizeof(name), "mestimate_bm%d %dx%d search_param %d content %d", BS, w, h, p, content);
    fill(cur, ref, ls, h, content);
    bytes = mestimate_bm_smem(BS, p, (bw - 1) << log2_mb, (bh - 1) << log2_mb, &stride);
    if (!bytes) {
        report(name, "mestimate_bm_smem() refused the case");
        return;
    }
    memset(&me, 0, sizeof(me));
    ff_me_init_context(&me, BS, p, w, h, 0, (bw - 1) << log2_mb, 0, (bh - 1) << log2_mb);
    me.data_cur = cur.data();
    me.data_ref = ref.data();
    me.linesize = ls;
    me_search_setup(&s, cur.data(), ref.data(), ls, BS, p, (bw - 1) << log2_mb,
                    (bh - 1) << log2_mb);
    for (int by = 0; by < bh && !detail[0]; by++)
        for (int bx = 0; bx < bw && !detail[0]; bx++) {
            const int x_mb = bx << log2_mb, y_mb = by << log2_mb;
            const MEWindow win = me_window(&s, x_mb, y_mb);
            std::vector<unsigned> smem(bytes / 4);
            int got[2], want[2] = { x_mb, y_mb };
            const unsigned long long key =
                bm_search<BS, true, false, unsigned long long>(cur.data(), ls, ref.data(), ls,
                                                              bw * BS, bh * BS, x_mb, y_mb,
                                                              win.x_min, win.y_min,
                                                              win.x_max - win.x_min + 1,
                                                              win.y_max - win.y_min + 1,
                                                              stride, smem.data());
            me_esa_pos(&win, x_mb, y_mb, key, got);
            ff_me_search_esa(&me, x_mb, y_mb, want);
            if (got[0] != want[0] || got[1] != want[1])
                snprintf(detail, sizeof(detail), "block (%d, %d): bm_search (%d, %d), "
                         "ff_me_search_esa (%d, %d)", x_mb, y_mb, got[0], got[1], want[0], want[1]);
        }
    report(name, detail);
}

template <int NR>
static void test_c63(int w, int h, int r, int content)
{
    std::vector<uint8_t> cur((size_t)w * h), ref((size_t)w * h);
    const int stride = BM_STRIDE(8, 2 * r), rows = BM_ROWS_N(8, 2 * r, NR);
    char name[128], detail[256] = "";

    snprintf(name, sizeof(name), "c63_me%d %dx%d range %d content %d", NR, w, h, r, content);
    fill(cur, ref, w, h, content);
    for (int my = 0; my < h && !detail[0]; my += 8)
        for (int mx = 0; mx < w && !detail[0]; mx += 8) {
            const int x0 = mx - r > 0 ? mx - r : 0, x1 = mx + r < w - 8 ? mx + r : w - 8;
            const int y0 = my - r > 0 ? my - r : 0, y1 = my + r < h - 8 ? my + r : h - 8;
            std::vector<unsigned> smem((size_t)stride / 4 * rows);
            const unsigned key =
                bm_search<8, false, true, unsigned, NR>(cur.data(), w, ref.data(), w,
                                                        w, h, mx, my, x0, y0,
                                                        x1 - x0, y1 - y0, stride,
                                                        smem.data());
            int gx = 0, gy = 0, wx = 0, wy = 0;
            unsigned best = ~0u;

            if (key != 0xFFFFFFFFu) {
                const int c = key & 0xFFFF, nx = x1 - x0;
                gx = x0 + c % nx - mx;
                gy = y0 + c / nx - my;
            }
            /* docs/c63-format.md section 7.3: y outer, x inner, strictly
             * smaller wins */
            for (int y = y0; y < y1; y++)
                for (int x = x0; x < x1; x++) {
                    unsigned sad = 0;
                    for (int j = 0; j < 8; j++)
                        for (int i = 0; i < 8; i++)
                            sad += abs(cur[(my + j) * w + mx + i] - ref[(y + j) * w + x + i]);
                    if (sad < best) {
                        best = sad;
                        wx = x - mx;
                        wy = y - my;
                    }
                }
            if (gx != wx || gy != wy)
                snprintf(detail, sizeof(detail), "block (%d, %d): bm_search (%d, %d), "
                         "section 6 (%d, %d)", mx, my, gx, gy, wx, wy);
        }
    report(name, detail);
}

int main(void)
{
    for (int content = 0; content < 4; content++) {
        for (int p : { 1, 4, 7, 32 }) {
            test_mestimate<8>(99, 75, p, content);
            test_mestimate<16>(99, 75, p, content);
            test_mestimate<16>(133, 99, p, content);
            test_mestimate<32>(99, 75, p, content);
            test_mestimate<64>(140, 130, p, content);
        }
        for (int r : { 0, 1, 3, 4, 7, 16, 20, 64 }) {
            /* both kernels c63_cuda_enc.cu has */
            test_c63<8>(40, 24, r, content);
            test_c63<16>(40, 24, r, content);
            test_c63<8>(176, 104, r, content);
            test_c63<16>(176, 104, r, content);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
