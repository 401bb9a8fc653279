/*
 * checkcuda: the mestimate_cuda filter's kernels
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
 * Every kernel of cuda_kernels/mestimate_cuda.cu against mestimate's own
 * ff_me_search_*: every per-block method, block sizes, search parameters,
 * frame sizes that are not multiples of the block; and their benchmark.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>

extern "C" {
#include "libavutil/common.h"
#include "libavfilter/motion_estimation.h"

extern const unsigned char ff_mestimate_cuda_block_ptx_data[], ff_mestimate_cuda_esa_ptx_data[],
                           ff_mestimate_cuda_bm8_ptx_data[], ff_mestimate_cuda_bm16_ptx_data[],
                           ff_mestimate_cuda_bm32_ptx_data[], ff_mestimate_cuda_bm64_ptx_data[];
extern const unsigned int ff_mestimate_cuda_block_ptx_len, ff_mestimate_cuda_esa_ptx_len,
                          ff_mestimate_cuda_bm8_ptx_len, ff_mestimate_cuda_bm16_ptx_len,
                          ff_mestimate_cuda_bm32_ptx_len, ff_mestimate_cuda_bm64_ptx_len;
}
#include "cuda_kernels/mestimate_cuda.h"
#include "cuda_kernels/me_search.h"
#include "tests/c63/harness/checkcuda.h"

static CUmodule me_modules[6];     /* block, esa, bm8 .. bm64 (mestimate_cuda.cu) */
static CUfunction f_mest_block, f_mest_esa, f_mest_staged, f_mest_bm[4];

typedef uint64_t (*MESearchFunc)(AVMotionEstContext *, int, int, int *);
static const struct { const char *name; MESearchFunc f; } mest_methods[] = {
    { "esa", ff_me_search_esa }, { "tss", ff_me_search_tss }, { "tdls", ff_me_search_tdls },
    { "ntss", ff_me_search_ntss }, { "fss", ff_me_search_fss }, { "ds", ff_me_search_ds },
    { "hexbs", ff_me_search_hexbs },
};

/* One direction of mestimate_cuda on a plane pair: kernel esa 1
 * (mestimate_esa), 2 (mestimate_esa_staged) or 3 (mestimate_bmN, the block
 * matching of c63_me, which the filter uses where it fits; else the staged
 * kernel), or 0: the per-block kernel for method (1..7). */
static void run_mestimate(CUdeviceptr cur, CUdeviceptr ref, int linesize, int log2_mb, int p,
                          int bw, int bh, int method, int esa, CUdeviceptr mvs)
{
    int mb = 1 << log2_mb;
    unsigned bm_bytes;
    int bm_stride;
    if (esa == 3 && (bm_bytes = mestimate_bm_smem(mb, p, (bw - 1) << log2_mb, (bh - 1) << log2_mb,
                                                   &bm_stride))) {
        void *args[] = { &cur, &ref, &linesize, &p, &bw, &bh, &bm_stride, &mvs };
        launch(f_mest_bm[log2_mb - 3], bw, bh, MESTIMATE_ESA_THREADS, 1, bm_bytes, args);
    } else if (esa >= 2) {
        int stride, lines;
        me_esa_stage_size(mb, p, (bw - 1) << log2_mb, (bh - 1) << log2_mb, &stride, &lines);
        void *args[] = { &cur, &ref, &linesize, &mb, &log2_mb, &p, &bw, &bh, &stride, &mvs };
        launch(f_mest_staged, bw, bh, MESTIMATE_ESA_THREADS, 1, (unsigned)(stride * lines), args);
    } else if (esa) {
        void *args[] = { &cur, &ref, &linesize, &mb, &log2_mb, &p, &bw, &bh, &mvs };
        launch(f_mest_esa, bw, bh, MESTIMATE_ESA_THREADS, 1, 0, args);
    } else {
        void *args[] = { &cur, &ref, &linesize, &mb, &log2_mb, &p, &bw, &bh, &method, &mvs };
        launch(f_mest_block, (bw * bh + MESTIMATE_BLOCK_THREADS - 1) / MESTIMATE_BLOCK_THREADS, 1,
               MESTIMATE_BLOCK_THREADS, 1, 0, args);
    }
}

void checkcuda_mestimate_test(void)
{
    static const int sizes[][2] = { { 8, 8 }, { 99, 75 }, { 352, 288 } };
    static const int mbs[] = { 8, 16, 32, 64 };
    static const int params[] = { 4, 7, 32 };
    static const Content contents[] = { SMOOTH, FEW_LEVELS, FLAT, RANDOM };

    /* 7, 8, 9: esa through mestimate_esa, mestimate_esa_staged, mestimate_bmN */
    for (int m = 0; m < 10; m++) {
        const int esa = m < 7 ? 0 : m - 6;
        const int method = esa ? AV_ME_METHOD_ESA : m + 1;
        for (int mb : mbs) {
            std::string detail;
            int searched = 0;
            for (auto &sz : sizes)
                for (int p : params)
                    for (Content c : contents) {
                        const int w = sz[0], h = sz[1], log2_mb = av_log2(mb);
                        const int bw = w >> log2_mb, bh = h >> log2_mb, nb = bw * bh;
                        const int ls = w + 29;
                        if (!nb || !detail.empty() || (long)w * h > max_area)
                            continue;
                        std::vector<uint8_t> cur((size_t)ls * h), ref((size_t)ls * h);
                        fill(ref, ls, h, c, 0);
                        fill(cur, ls, h, c, 2);
                        DevBuf dc(cur.size()), dr(ref.size()), dm((size_t)nb * 8);
                        dc.up(cur.data(), cur.size());
                        dr.up(ref.data(), ref.size());
                        run_mestimate(dc.p, dr.p, ls, log2_mb, p, bw, bh, method, esa, dm.p);
                        std::vector<int> got((size_t)nb * 2);
                        dm.down(got.data(), got.size() * sizeof(int));

                        AVMotionEstContext me;
                        memset(&me, 0, sizeof(me));
                        ff_me_init_context(&me, mb, p, w, h, 0, (bw - 1) << log2_mb,
                                           0, (bh - 1) << log2_mb);
                        me.data_cur = cur.data();
                        me.data_ref = ref.data();
                        me.linesize = ls;
                        for (int i = 0; i < nb && detail.empty(); i++) {
                            int x_mb = (i % bw) << log2_mb, y_mb = (i / bw) << log2_mb;
                            int mv[2] = { x_mb, y_mb };
                            mest_methods[method - 1].f(&me, x_mb, y_mb, mv);
                            searched++;
                            if (mv[0] != got[2 * i] || mv[1] != got[2 * i + 1]) {
                                char buf[256];
                                snprintf(buf, sizeof(buf), "%dx%d search_param %d content %d "
                                         "block (%d, %d): gpu (%d, %d), ff_me_search_%s (%d, %d)",
                                         w, h, p, (int)c, x_mb, y_mb, got[2 * i], got[2 * i + 1],
                                         mest_methods[method - 1].name, mv[0], mv[1]);
                                detail = buf;
                            }
                        }
                    }
            char name[96];
            snprintf(name, sizeof(name), "mestimate %s mb_size %d%s",
                     esa ? "esa" : mest_methods[m].name, mb,
                     esa == 3 ? " (mestimate_bmN)" :
                     esa == 2 ? " (mestimate_esa_staged)" :
                     esa ? " (mestimate_esa)" : " (mestimate_block)");
            report(name, detail.empty() && searched > 0, detail.empty() ? "no block searched" : detail);
        }
    }
}

/* 1080p luma, esa, mb_size 16, search_param 7 and 32: mestimate_esa's time
 * per direction and its rate of byte absolute differences */
void checkcuda_mestimate_bench(CUevent e0, CUevent e1, double peak_rate)
{
    const int w = 1920, h = 1080, log2_mb = 4, mb = 16, reps = 20;
    const int bw = w / mb, bh = h / mb, nb = bw * bh;
    std::vector<uint8_t> cur((size_t)w * h), ref((size_t)w * h);
    fill(ref, w, h, SMOOTH, 0);
    fill(cur, w, h, SMOOTH, 2);
    DevBuf dc(cur.size()), dr(ref.size()), dm((size_t)nb * 8);
    dc.up(cur.data(), cur.size());
    dr.up(ref.data(), ref.size());
    printf("bench mestimate_cuda (1920x1080 luma plane, CUDA events, one direction; "
           "a frame is two):\n");
    for (int p : { 7, 32 }) {
        double candidates = 0;
        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++) {
                int x = bx * mb, y = by * mb;
                int nx = std::min(x + p, (bw - 1) * mb) - std::max(0, x - p) + 1;
                int ny = std::min(y + p, (bh - 1) * mb) - std::max(0, y - p) + 1;
                candidates += (double)nx * ny;
            }
        for (int esa = 3; esa >= 0; esa--) {
            run_mestimate(dc.p, dr.p, w, log2_mb, p, bw, bh, AV_ME_METHOD_ESA, esa, dm.p);
            CK(cu->cuEventRecord(e0, NULL));
            for (int i = 0; i < reps; i++)
                run_mestimate(dc.p, dr.p, w, log2_mb, p, bw, bh, AV_ME_METHOD_ESA, esa, dm.p);
            CK(cu->cuEventRecord(e1, NULL));
            CK(cu->cuEventSynchronize(e1));
            float ms = time_ms(e0, e1) / reps;
            double rate = candidates * mb * mb / (ms * 1e-3);
            printf("  %-16s esa mb16 p%-2d %8.3f ms/direction  %.0f candidates  "
                   "%.1f G byte-absdiff/s  %.1f%% of peak\n",
                   esa == 3 ? "mestimate_bm16" : esa == 2 ? "mestimate_esa_staged" :
                   esa ? "mestimate_esa" : "mestimate_block",
                   p, ms, candidates,
                   rate * 1e-9, 100.0 * rate / peak_rate);
        }
    }
}


void checkcuda_mestimate_init(void)
{
    const unsigned char *data[6] = {
        ff_mestimate_cuda_block_ptx_data, ff_mestimate_cuda_esa_ptx_data,
        ff_mestimate_cuda_bm8_ptx_data, ff_mestimate_cuda_bm16_ptx_data,
        ff_mestimate_cuda_bm32_ptx_data, ff_mestimate_cuda_bm64_ptx_data,
    };
    const unsigned len[6] = {
        ff_mestimate_cuda_block_ptx_len, ff_mestimate_cuda_esa_ptx_len,
        ff_mestimate_cuda_bm8_ptx_len, ff_mestimate_cuda_bm16_ptx_len,
        ff_mestimate_cuda_bm32_ptx_len, ff_mestimate_cuda_bm64_ptx_len,
    };
    for (int i = 0; i < 6; i++) {
        std::string ptx = inflate_ptx(data[i], len[i]);
        CK(cu->cuModuleLoadData(&me_modules[i], ptx.c_str()));
    }
    CK(cu->cuModuleGetFunction(&f_mest_block, me_modules[0], "mestimate_block"));
    CK(cu->cuModuleGetFunction(&f_mest_esa,   me_modules[1], "mestimate_esa"));
    CK(cu->cuModuleGetFunction(&f_mest_staged, me_modules[1], "mestimate_esa_staged"));
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof(name), "mestimate_bm%d", 8 << i);
        CK(cu->cuModuleGetFunction(&f_mest_bm[i], me_modules[2 + i], name));
    }
}

void checkcuda_mestimate_uninit(void)
{
    for (CUmodule m : me_modules)
        cu->cuModuleUnload(m);
}
