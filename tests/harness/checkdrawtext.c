/*
 * checkdrawtext: drawtext_cuda's per-sample blending (the CPU twin of its
 * kernel) against drawutils
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
 * Usage: checkdrawtext [SEED]
 *
 * For each format drawtext_cuda takes, and frame sizes odd and even: random
 * pictures, random sequences of ff_blend_rectangle() and ff_blend_mask()
 * calls (random colours and alphas, positions partly or wholly outside
 * the frame, clipping bounds smaller than the frame as drawtext passes
 * them), executed by drawutils on one copy and recorded as DTCOp
 * operations (dtc_rect_op, dtc_mask_op: the filter's own recording) and
 * drawn by dtc_draw_cpu (the kernel's per-sample code) on another. The
 * two pictures must be equal byte for byte. yuyv422 and uyvy422 are drawn
 * by drawutils as yuv422p and packed, as drawtext_cuda defines them.
 *
 * Prints one line per format and "checkdrawtext: N passed, N failed".
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"
#include "libavfilter/drawutils.h"
#include "tests/c63/harness/dtc_draw_cpu.h"

#define MAX_OPS 40

static uint32_t rng_state = 1;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}
static int rnd_range(int lo, int hi) { return lo + (int)(rnd() % (unsigned)(hi - lo + 1)); }

typedef struct Picture {
    uint8_t *data[4];
    int linesize[4];
    uint8_t *buf[4];
} Picture;

static void alloc_picture(Picture *p, const AVPixFmtDescriptor *desc, int w, int h)
{
    memset(p, 0, sizeof(*p));
    for (int c = 0; c < desc->nb_components; c++) {
        int pl = desc->comp[c].plane;
        int cw, ch;
        if (p->buf[pl])
            continue;
        cw = pl && pl < 3 && !(desc->flags & AV_PIX_FMT_FLAG_RGB) ? AV_CEIL_RSHIFT(w, desc->log2_chroma_w) : w;
        ch = pl && pl < 3 && !(desc->flags & AV_PIX_FMT_FLAG_RGB) ? AV_CEIL_RSHIFT(h, desc->log2_chroma_h) : h;
        p->linesize[pl] = FFALIGN(cw * desc->comp[c].step, 32) + 32;
        p->buf[pl]  = av_malloc((size_t)p->linesize[pl] * ch);
        p->data[pl] = p->buf[pl];
        for (size_t i = 0; i < (size_t)p->linesize[pl] * ch; i++)
            p->buf[pl][i] = rnd();
    }
}

static void free_picture(Picture *p)
{
    for (int i = 0; i < 4; i++)
        av_freep(&p->buf[i]);
}

/* Planes of a yuv422p picture packed to yuyv422 (or uyvy422) in dst. */
static void pack422(uint8_t *dst, int dst_linesize, const Picture *p, int w, int h, int uyvy)
{
    for (int y = 0; y < h; y++) {
        uint8_t *d = dst + (size_t)y * dst_linesize;
        for (int x = 0; x < w; x++) {
            d[2 * x + !!uyvy] = p->data[0][y * p->linesize[0] + x];
            if (!(x & 1)) {
                d[2 * x + 1 - !!uyvy]     = p->data[1][y * p->linesize[1] + x / 2];
                d[2 * x + 3 - !!uyvy]     = p->data[2][y * p->linesize[2] + x / 2];
            }
        }
    }
}

static int run_case(enum AVPixelFormat fmt, int w, int h, int nb_ops)
{
    const int packed422 = fmt == AV_PIX_FMT_YUYV422 || fmt == AV_PIX_FMT_UYVY422;
    const enum AVPixelFormat draw_fmt = packed422 ? AV_PIX_FMT_YUV422P : fmt;
    const AVPixFmtDescriptor *desc  = av_pix_fmt_desc_get(fmt);
    const AVPixFmtDescriptor *ddesc = av_pix_fmt_desc_get(draw_fmt);
    FFDrawContext draw;
    Picture ref, twin;
    uint8_t *packed = NULL;
    int packed_linesize = FFALIGN(2 * w, 32) + 32 + 4;
    unsigned char atlas[64 * 64 * 4];
    DTCOp ops[MAX_OPS];
    DTCChannel ch[DTC_MAX_CHANNELS];
    int nops = 0, ok = 1;

    if (ff_draw_init(&draw, draw_fmt, FF_DRAW_PROCESS_ALPHA) < 0) {
        printf("  %s: ff_draw_init failed\n", av_get_pix_fmt_name(draw_fmt));
        return 0;
    }
    for (size_t i = 0; i < sizeof(atlas); i++)
        atlas[i] = rnd() % 3 ? rnd() : (rnd() & 1) * 255;

    alloc_picture(&ref, ddesc, w, h);
    if (packed422) {
        packed = av_mallocz((size_t)packed_linesize * h);
        pack422(packed, packed_linesize, &ref, w, h, fmt == AV_PIX_FMT_UYVY422);
        memset(&twin, 0, sizeof(twin));
        twin.data[0] = packed;
        twin.linesize[0] = packed_linesize;
    } else {
        /* same contents as ref */
        alloc_picture(&twin, ddesc, w, h);
        for (int pl = 0; pl < 4; pl++)
            if (ref.buf[pl]) {
                int ch_h = pl && pl < 3 && !(ddesc->flags & AV_PIX_FMT_FLAG_RGB) ?
                           AV_CEIL_RSHIFT(h, ddesc->log2_chroma_h) : h;
                memcpy(twin.buf[pl], ref.buf[pl], (size_t)ref.linesize[pl] * ch_h);
            }
    }

    for (int i = 0; i < nb_ops; i++) {
        FFDrawColor color;
        uint8_t rgba[4] = { rnd(), rnd(), rnd(), rnd() % 4 == 0 ? 255 : rnd() % 8 == 0 ? 0 : rnd() };
        /* drawtext clips glyphs to the box, which may end inside the frame */
        int dst_w = rnd() % 3 ? w : rnd_range(1, w);
        int dst_h = rnd() % 3 ? h : rnd_range(1, h);
        int bw = rnd_range(1, 40), bh = rnd_range(1, 40);
        int x  = rnd_range(-45, w + 4), y = rnd_range(-45, h + 4);
        DTCOp op;
        int drawn;

        ff_draw_color(&draw, &color, rgba);
        if (rnd() % 4 == 0) {
            ff_blend_rectangle(&draw, &color, ref.data, ref.linesize, dst_w, dst_h, x, y, bw, bh);
            drawn = dtc_rect_op(&op, dst_w, dst_h, x, y, bw, bh, rgba[3]);
        } else {
            int pitch = rnd_range(bw, 64);
            int off   = rnd_range(0, 64 * 64 * 4 - pitch * bh - 1);
            ff_blend_mask(&draw, &color, ref.data, ref.linesize, dst_w, dst_h,
                          atlas + off, pitch, bw, bh, 3, 0, x, y);
            drawn = dtc_mask_op(&op, dst_w, dst_h, off, pitch, bw, bh, x, y, rgba[3]);
        }
        if (drawn && nops < MAX_OPS) {
            for (int c = 0; c < DTC_MAX_CHANNELS; c++)
                op.color[c] = c < ddesc->nb_components ?
                    color.comp[ddesc->comp[c].plane].u8[ddesc->comp[c].offset] : 0;
            ops[nops++] = op;
        }
    }

    /* channels as drawtext_cuda's set_channels() and run_kernel() */
    for (int c = 0; c < desc->nb_components; c++) {
        const AVComponentDescriptor *comp = &desc->comp[c];
        int chroma = !(desc->flags & AV_PIX_FMT_FLAG_RGB) && (c == 1 || c == 2) &&
                     desc->nb_components >= 3;
        ch[c].data     = (uintptr_t)(twin.data[comp->plane] + comp->offset);
        ch[c].linesize = twin.linesize[comp->plane];
        ch[c].step     = comp->step;
        ch[c].hsub     = chroma ? desc->log2_chroma_w : 0;
        ch[c].vsub     = chroma ? desc->log2_chroma_h : 0;
        ch[c].width    = AV_CEIL_RSHIFT(w, ch[c].hsub);
        ch[c].height   = AV_CEIL_RSHIFT(h, ch[c].vsub);
    }
    dtc_draw_cpu(ch, desc->nb_components, ops, nops, atlas);

    if (packed422) {
        uint8_t *expect = av_mallocz((size_t)packed_linesize * h);
        pack422(expect, packed_linesize, &ref, w, h, fmt == AV_PIX_FMT_UYVY422);
        for (int y = 0; y < h && ok; y++)
            for (int x = 0; x < 2 * FFALIGN(w, 2); x++)
                if (expect[y * packed_linesize + x] != packed[y * packed_linesize + x]) {
                    printf("  %s %dx%d: byte %d of line %d: drawutils %d, twin %d\n",
                           desc->name, w, h, x, y, expect[y * packed_linesize + x],
                           packed[y * packed_linesize + x]);
                    ok = 0;
                    break;
                }
        av_free(expect);
        av_free(packed);
    } else {
        for (int c = 0; c < desc->nb_components && ok; c++) {
            const DTCChannel *cc = &ch[c];
            int pl = desc->comp[c].plane;
            for (int y = 0; y < cc->height && ok; y++)
                for (int x = 0; x < cc->width; x++) {
                    size_t o = (size_t)y * cc->linesize + (size_t)x * cc->step + desc->comp[c].offset;
                    if (ref.data[pl][o] != twin.data[pl][o]) {
                        printf("  %s %dx%d: component %d sample (%d,%d): drawutils %d, twin %d\n",
                               desc->name, w, h, c, x, y, ref.data[pl][o], twin.data[pl][o]);
                        ok = 0;
                        break;
                    }
                }
        }
        free_picture(&twin);
    }
    free_picture(&ref);
    return ok;
}

int main(int argc, char **argv)
{
    static const enum AVPixelFormat formats[] = {
        AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12,    AV_PIX_FMT_YUV444P,
        AV_PIX_FMT_0RGB,    AV_PIX_FMT_0BGR,    AV_PIX_FMT_RGB0,   AV_PIX_FMT_BGR0,
        AV_PIX_FMT_YUYV422, AV_PIX_FMT_UYVY422, AV_PIX_FMT_RGB24,  AV_PIX_FMT_BGR24,
        AV_PIX_FMT_GRAY8,
    };
    static const int sizes[][2] = { { 1, 1 }, { 2, 2 }, { 3, 5 }, { 17, 9 }, { 33, 31 },
                                    { 64, 48 }, { 97, 63 }, { 160, 90 } };
    int passed = 0, failed = 0;

    if (argc > 1)
        rng_state = strtoul(argv[1], NULL, 0);

    for (int f = 0; f < FF_ARRAY_ELEMS(formats); f++) {
        int fpass = 0, ffail = 0;
        for (int s = 0; s < FF_ARRAY_ELEMS(sizes); s++)
            for (int r = 0; r < 25; r++) {
                if (run_case(formats[f], sizes[s][0], sizes[s][1], rnd_range(1, MAX_OPS)))
                    fpass++;
                else
                    ffail++;
            }
        printf("%-8s %s (%d cases)\n", av_get_pix_fmt_name(formats[f]),
               ffail ? "FAILED" : "ok", fpass + ffail);
        passed += fpass;
        failed += ffail;
    }
    printf("checkdrawtext: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
