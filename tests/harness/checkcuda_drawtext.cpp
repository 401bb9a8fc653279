/*
 * checkcuda: the drawtext_cuda filter's kernels
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
 * drawtext_cuda's two kernels (cuda_kernels/drawtext_cuda.cu) against its
 * CPU twin, and their benchmark.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>

extern "C" {
#include "libavutil/pixdesc.h"
#include "tests/c63/harness/dtc_draw_cpu.h"

extern const unsigned char ff_drawtext_cuda_ptx_data[];
extern const unsigned int ff_drawtext_cuda_ptx_len;
}
#include "tests/c63/harness/checkcuda.h"

static CUmodule dt_module;
static CUfunction f_drawtext, f_drawtext_inline;

/*
 * drawtext_cuda's kernel against its CPU twin dtc_draw_cpu() (whose
 * agreement with drawutils checkdrawtext shows on the CPU): random
 * pictures, atlases and operation lists, clipped by the filter's own
 * dtc_rect_op/dtc_mask_op, launched as the filter launches it; more than
 * one block's worth of operations in some cases. Lists of at most
 * DTC_INLINE_ENTRIES entries also through drawtext_cuda_inline (the list in
 * the launch's parameters), as the filter launches those.
 */
static void test_drawtext_case(enum AVPixelFormat fmt, int w, int h, int nb_ops)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    int linesize[4] = { 0 }, height[4] = { 0 };
    std::vector<uint8_t> pic[4], twin[4], got[4];
    std::vector<unsigned char> atlas(64 * 64 * 8);
    std::vector<DTCOp> ops;
    DTCChannel ch[DTC_MAX_CHANNELS];
    DTCParams p;
    char name[96];

    for (auto &a : atlas)
        a = rnd() % 3 ? rnd() : (rnd() & 1) * 255;
    for (int c = 0; c < desc->nb_components; c++) {
        int pl = desc->comp[c].plane;
        int chroma = !(desc->flags & AV_PIX_FMT_FLAG_RGB) && (c == 1 || c == 2) &&
                     desc->nb_components >= 3;
        ch[c].hsub   = chroma ? desc->log2_chroma_w : 0;
        ch[c].vsub   = chroma ? desc->log2_chroma_h : 0;
        ch[c].width  = -((-w) >> ch[c].hsub);
        ch[c].height = -((-h) >> ch[c].vsub);
        ch[c].step   = desc->comp[c].step;
        if (!linesize[pl]) {
            linesize[pl] = ((ch[c].width * ch[c].step + 3 + 63) & ~63) + 64;
            height[pl]   = ch[c].height;
            pic[pl].resize((size_t)linesize[pl] * height[pl]);
            for (auto &v : pic[pl])
                v = rnd();
            twin[pl] = pic[pl];
        }
        ch[c].linesize = linesize[pl];
    }
    while ((int)ops.size() < nb_ops) {
        DTCOp op;
        int dst_w = rnd() % 3 ? w : 1 + rnd() % w, dst_h = rnd() % 3 ? h : 1 + rnd() % h;
        int bw = 1 + rnd() % 40, bh = 1 + rnd() % 40;
        int x = (int)(rnd() % (w + 50)) - 45, y = (int)(rnd() % (h + 50)) - 45;
        unsigned a = rnd() % 4 == 0 ? 255 : rnd() & 255;
        int drawn;
        if (rnd() % 4 == 0) {
            drawn = dtc_rect_op(&op, dst_w, dst_h, x, y, bw, bh, a);
        } else {
            int pitch = bw + rnd() % 24;
            int off   = rnd() % (atlas.size() - (size_t)pitch * bh);
            drawn = dtc_mask_op(&op, dst_w, dst_h, off, pitch, bw, bh, x, y, a);
        }
        if (!drawn)
            continue;
        for (int c = 0; c < DTC_MAX_CHANNELS; c++)
            op.color[c] = rnd();
        ops.push_back(op);
    }

    /* the CPU twin */
    for (int c = 0; c < desc->nb_components; c++)
        ch[c].data = (uintptr_t)(twin[desc->comp[c].plane].data() + desc->comp[c].offset);
    dtc_draw_cpu(ch, desc->nb_components, ops.data(), (int)ops.size(), atlas.data());

    /* the kernel, with the chunk boxes after the operations */
    memset(&p, 0, sizeof(p));
    ops.resize(DTC_NB_ENTRIES(nb_ops));
    dtc_finish_ops(ops.data(), nb_ops, &p);
    DevBuf d_atlas(atlas.size()), d_ops(ops.size() * sizeof(DTCOp));
    std::vector<DevBuf *> d_pic(4, (DevBuf *)NULL);
    d_atlas.up(atlas.data(), atlas.size());
    d_ops.up(ops.data(), ops.size() * sizeof(DTCOp));
    for (int pl = 0; pl < 4; pl++)
        if (linesize[pl])
            d_pic[pl] = new DevBuf(pic[pl].size());
    for (int c = 0; c < desc->nb_components; c++) {
        p.ch[c] = ch[c];
        p.ch[c].data = d_pic[desc->comp[c].plane]->p + desc->comp[c].offset;
    }
    p.nb_channels = desc->nb_components;
    p.ops    = d_ops.p;
    p.atlas  = d_atlas.p;

    for (int in_params = 0; in_params < 2; in_params++) {
        DTCInlineParams q = DTCInlineParams();
        void *args[] = { &p }, *inline_args[] = { &q };
        if (in_params && !dtc_inline_params(&q, &p, ops.data(), (int)ops.size()))
            break;
        for (int pl = 0; pl < 4; pl++)
            if (d_pic[pl])
                d_pic[pl]->up(pic[pl].data(), pic[pl].size());
        CK(cu->cuLaunchKernel(in_params ? f_drawtext_inline : f_drawtext,
                              (p.x1 - 1 - p.x0) / DTC_BLOCK_W + 1,
                              (p.y1 - 1 - p.y0) / DTC_BLOCK_H + 1, p.nb_channels,
                              DTC_BLOCK_W, DTC_BLOCK_H, 1, 0, NULL,
                              in_params ? inline_args : args, NULL));
        CK(cu->cuStreamSynchronize(NULL));

        std::string detail;
        for (int pl = 0; pl < 4 && detail.empty(); pl++) {
            if (!linesize[pl])
                continue;
            got[pl].resize(pic[pl].size());
            d_pic[pl]->down(got[pl].data(), got[pl].size());
            for (size_t i = 0; i < got[pl].size(); i++)
                if (got[pl][i] != twin[pl][i]) {
                    char b[160];
                    snprintf(b, sizeof(b), "plane %d byte %zu (line %zu): kernel %d, CPU twin %d, input %d",
                             pl, i % linesize[pl], i / linesize[pl], got[pl][i], twin[pl][i], pic[pl][i]);
                    detail = b;
                    break;
                }
        }
        snprintf(name, sizeof(name), "drawtext%s %s %dx%d, %d ops",
                 in_params ? "_inline" : "", desc->name, w, h, nb_ops);
        report(name, detail.empty(), detail);
    }
    for (DevBuf *b : d_pic)
        delete b;
}

void checkcuda_drawtext_test(void)
{
    static const enum AVPixelFormat formats[] = {
        AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12,    AV_PIX_FMT_YUV444P,
        AV_PIX_FMT_0RGB,    AV_PIX_FMT_0BGR,    AV_PIX_FMT_RGB0,   AV_PIX_FMT_BGR0,
        AV_PIX_FMT_YUYV422, AV_PIX_FMT_UYVY422, AV_PIX_FMT_RGB24,  AV_PIX_FMT_BGR24,
        AV_PIX_FMT_GRAY8,
    };
    /* 9000 operations: more chunk boxes than one block reads at once */
    /* 62 operations: the longest list that goes in the parameters */
    static const int sizes[][3] = { { 1, 1, 3 }, { 33, 17, 40 }, { 65, 41, 62 }, { 97, 63, 300 },
                                    { 321, 241, 700 }, { 97, 63, 9000 } };
    printf("drawtext_cuda kernel against dtc_draw_cpu:\n");
    for (enum AVPixelFormat f : formats)
        for (const auto &s : sizes)
            if ((long)s[0] * s[1] <= max_area)
                test_drawtext_case(f, s[0], s[1], s[2]);
}

/*
 * drawtext_cuda's kernel at 1920x1080 nv12, as the benchmark's two texts
 * lay out (bench/bench-drawtext.sh): a one-line timestamp of 22 glyphs at
 * font size 48, and a 20-line block at 32 with box and border (the box,
 * then each glyph's border bitmap and the glyph itself). Kernel: launches
 * back to back, CUDA events around them all. Per frame as the filter
 * queues it: the copy of the operations from pinned memory and the launch,
 * back to back, host wall time over many frames (the rate at which the
 * device part can take frames).
 */
static void bench_drawtext_case(const char *label, int lines, int glyphs, int gw, int gh,
                                int adv, int lh, int border, int box)
{
    const int w = 1920, h = 1080, reps = 500, x0 = 40, y0 = 40;
    const int linesize = 2048;
    std::vector<unsigned char> atlas(256 * 1024);
    std::vector<DTCOp> ops;
    DTCOp op;
    DTCParams p;
    CUevent e0, e1;

    for (auto &a : atlas)
        a = rnd() % 3 ? rnd() : (rnd() & 1) * 255;
    if (box && dtc_rect_op(&op, w, h, x0 - 10, y0 - 10, glyphs * adv + 20, lines * lh + 20, 128))
        ops.push_back(op);
    for (int pass = border ? 0 : 1; pass < 2; pass++)
        for (int l = 0; l < lines; l++)
            for (int g = 0; g < glyphs; g++) {
                int bw = gw + (pass ? 0 : 2 * border), bh = gh + (pass ? 0 : 2 * border);
                int off = (int)(rnd() % (atlas.size() - (size_t)bw * bh));
                int x = x0 + g * adv - (pass ? 0 : border), y = y0 + l * lh - (pass ? 0 : border);
                if (dtc_mask_op(&op, w, h, off, bw, bw, bh, x, y, 255))
                    ops.push_back(op);
            }
    for (auto &o : ops)
        for (int c = 0; c < DTC_MAX_CHANNELS; c++)
            o.color[c] = rnd();
    const int nb_ops = (int)ops.size();
    memset(&p, 0, sizeof(p));
    ops.resize(DTC_NB_ENTRIES(nb_ops));
    dtc_finish_ops(ops.data(), nb_ops, &p);

    DevBuf d_atlas(atlas.size()), d_ops(ops.size() * sizeof(DTCOp));
    DevBuf luma((size_t)linesize * h), chroma((size_t)linesize * (h / 2));
    d_atlas.up(atlas.data(), atlas.size());
    d_ops.up(ops.data(), ops.size() * sizeof(DTCOp));
    CK(cu->cuMemsetD8Async(luma.p, 16, luma.size, NULL));
    CK(cu->cuMemsetD8Async(chroma.p, 128, chroma.size, NULL));
    for (int c = 0; c < 3; c++) {
        p.ch[c].data     = c ? chroma.p + (c - 1) : luma.p;
        p.ch[c].linesize = linesize;
        p.ch[c].width    = c ? w / 2 : w;
        p.ch[c].height   = c ? h / 2 : h;
        p.ch[c].step     = c ? 2 : 1;
        p.ch[c].hsub     = p.ch[c].vsub = c ? 1 : 0;
    }
    p.nb_channels = 3;
    p.ops   = d_ops.p;
    p.atlas = d_atlas.p;
    void *args[] = { &p };
    const unsigned gx = (p.x1 - 1 - p.x0) / DTC_BLOCK_W + 1, gy = (p.y1 - 1 - p.y0) / DTC_BLOCK_H + 1;

    CK(cu->cuEventCreate(&e0, 0));
    CK(cu->cuEventCreate(&e1, 0));
    CK(cu->cuLaunchKernel(f_drawtext, gx, gy, 3, DTC_BLOCK_W, DTC_BLOCK_H, 1, 0, NULL, args, NULL));
    CK(cu->cuEventRecord(e0, NULL));
    for (int i = 0; i < reps; i++)
        CK(cu->cuLaunchKernel(f_drawtext, gx, gy, 3, DTC_BLOCK_W, DTC_BLOCK_H, 1, 0, NULL,
                              args, NULL));
    CK(cu->cuEventRecord(e1, NULL));
    CK(cu->cuEventSynchronize(e1));
    const double kernel_us = time_ms(e0, e1) * 1e3 / reps;

    double frame_us = -1;
    if (mem_alloc_host) {
        void *pinned;
        const size_t bytes = ops.size() * sizeof(DTCOp);
        CK(mem_alloc_host(&pinned, bytes));
        memcpy(pinned, ops.data(), bytes);
        CK(cu->cuStreamSynchronize(NULL));
        const double t0 = now_us();
        for (int i = 0; i < reps; i++) {
            CK(cu->cuMemcpyHtoDAsync(d_ops.p, pinned, bytes, NULL));
            CK(cu->cuLaunchKernel(f_drawtext, gx, gy, 3, DTC_BLOCK_W, DTC_BLOCK_H, 1, 0, NULL,
                                  args, NULL));
        }
        CK(cu->cuStreamSynchronize(NULL));
        frame_us = (now_us() - t0) / reps;
        CK(mem_free_host(pinned));
    }
    printf("  %-34s %5d ops, grid %3ux%2ux3: kernel %7.1f us; copy+launch back to back %7.1f us a frame\n",
           label, nb_ops, gx, gy, kernel_us, frame_us);

    /* a list short enough for the launch's parameters, as the filter
     * launches it: no copy */
    DTCInlineParams q = DTCInlineParams();
    if (dtc_inline_params(&q, &p, ops.data(), (int)ops.size())) {
        void *inline_args[] = { &q };
        CK(cu->cuStreamSynchronize(NULL));
        CK(cu->cuEventRecord(e0, NULL));
        for (int i = 0; i < reps; i++)
            CK(cu->cuLaunchKernel(f_drawtext_inline, gx, gy, 3, DTC_BLOCK_W, DTC_BLOCK_H, 1, 0,
                                  NULL, inline_args, NULL));
        CK(cu->cuEventRecord(e1, NULL));
        CK(cu->cuEventSynchronize(e1));
        const double inline_us = time_ms(e0, e1) * 1e3 / reps;
        const double t0 = now_us();
        for (int i = 0; i < reps; i++)
            CK(cu->cuLaunchKernel(f_drawtext_inline, gx, gy, 3, DTC_BLOCK_W, DTC_BLOCK_H, 1, 0,
                                  NULL, inline_args, NULL));
        CK(cu->cuStreamSynchronize(NULL));
        printf("  %-34s %5d ops in the parameters: kernel %7.1f us; launch back to back %7.1f us a frame\n",
               label, nb_ops, inline_us, (now_us() - t0) / reps);
    }
    cu->cuEventDestroy(e0);
    cu->cuEventDestroy(e1);
}

void checkcuda_drawtext_bench(void)
{
    printf("bench drawtext_cuda (1920x1080 nv12, CUDA events):\n");
    bench_drawtext_case("timestamp (22 glyphs, size 48)", 1, 22, 28, 36, 29, 56, 0, 0);
    bench_drawtext_case("20 lines, box and border (size 32)", 20, 62, 18, 24, 19, 41, 2, 1);
}


void checkcuda_drawtext_init(void)
{
    std::string dt_ptx = inflate_ptx(ff_drawtext_cuda_ptx_data, ff_drawtext_cuda_ptx_len);
    CK(cu->cuModuleLoadData(&dt_module, dt_ptx.c_str()));
    CK(cu->cuModuleGetFunction(&f_drawtext, dt_module, "drawtext_cuda"));
    CK(cu->cuModuleGetFunction(&f_drawtext_inline, dt_module, "drawtext_cuda_inline"));
}

void checkcuda_drawtext_uninit(void)
{
    cu->cuModuleUnload(dt_module);
}
