/*
 * c63_cuda's GPU entropy coder run on the CPU, for the test programs
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
 * The serial coder: the c63_ec_* kernels' stages of
 * cuda_kernels/c63_ec.h, the kernels' own code, run serially on
 * the CPU (c63ec_code_frame_cpu()), and a frame writer around it
 * (c63ec_serial_write_frame()) that gives what the CPU writer of the c63
 * encoder gives (c63_write_frame(): ff_c63_write_begin(), _row(), _end()
 * on one thread). checkcuda compares each kernel with it, and checkc63 and
 * tests/ecserial compare it with the CPU writer, so that the GPU coder's
 * logic is checked without a GPU. Test code only: no encoder runs it.
 */

#ifndef TESTS_C63EC_SERIAL_H
#define TESTS_C63EC_SERIAL_H

#include <limits.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "libavutil/error.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavcodec/packet.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63enc.h"
#ifdef __cplusplus
}
#endif
#include "cuda_kernels/c63_ec.h"

/**
 * The kernels run serially: every stage over the whole frame, in order, each
 * grid emulated by loops over its thread blocks and threads and each scan
 * done sequentially, on host buffers (the pointers of p are host
 * addresses). Fills p->info and the packet as the kernels do.
 */
static inline void c63ec_code_frame_cpu(const C63ECParams *p)
{
    const C63ECTables *t = (const C63ECTables *)(uintptr_t)p->tables;
    const short *coef = (const short *)(uintptr_t)p->coef;
    const C63ECMV *mv = (const C63ECMV *)(uintptr_t)p->mv;
    unsigned int *slots = (unsigned int *)(uintptr_t)p->slots;
    unsigned int *len = (unsigned int *)(uintptr_t)p->len;
    unsigned long long *off = (unsigned long long *)(uintptr_t)p->off;
    unsigned long long *sums = (unsigned long long *)(uintptr_t)p->sums;
    unsigned int *words = (unsigned int *)(uintptr_t)p->words;
    unsigned long long *ffsum = (unsigned long long *)(uintptr_t)p->ffsum;
    unsigned char *pkt = (unsigned char *)(uintptr_t)p->pkt;
    C63ECInfo *info = (C63ECInfo *)(uintptr_t)p->info;
    unsigned long long total = 0, nff = 0, nwords, nfull, wchunks;

    /* 1: one thread per coded block */
    for (int i = 0; i < p->nblocks; i++)
    {
        int bx;
        len[i] = c63ec_code_block(p, t, coef, coef + 64 * c63ec_coded_block(p, i, &bx), mv, i,
                                  slots + (unsigned long long)i * C63EC_SLOT_WORDS);
    }

    /* 2a: chunk sums; 2b: each chunk's offsets from the sums before it */
    for (int c = 0; c < p->nchunks; c++) {
        unsigned long long s = 0;
        for (int i = c * C63EC_CHUNK; i < (c + 1) * C63EC_CHUNK && i < p->nblocks; i++)
            s += len[i];
        sums[c] = s;
    }
    for (int c = 0; c < p->nchunks; c++) {
        unsigned long long o = total;       /* the sums before chunk c */
        for (int i = c * C63EC_CHUNK; i < (c + 1) * C63EC_CHUNK && i < p->nblocks; i++) {
            off[i] = o;
            o += len[i];
        }
        total += sums[c];
    }
    info->bits = total;

    /* 3: one thread per word, the 0xFF bytes counted per chunk of words */
    nwords  = (total + 31) / 32;
    nfull   = total / 8;
    wchunks = (nwords + C63EC_THREADS - 1) / C63EC_THREADS;
    for (unsigned long long c = 0; c < wchunks; c++) {
        unsigned long long n = 0;
        for (int th = 0; th < C63EC_THREADS; th++) {
            const unsigned long long wi = c * C63EC_THREADS + th;
            if (wi < nwords) {
                words[wi] = c63ec_gather_word(off, len, slots, p->nblocks, total, wi);
                n += c63ec_word_ff(words[wi], wi, nfull);
            }
        }
        ffsum[c] = n;
    }

    /* 4: one thread per word, each chunk from the counts before it; the
     * header; after the last chunk the tail and the size */
    c63ec_header(pkt, (const unsigned char *)(uintptr_t)p->hdr, p->keyframe, 0, 1);
    for (unsigned long long c = 0; c < wchunks; c++) {
        unsigned long long before = nff;    /* the counts before chunk c */
        for (int th = 0; th < C63EC_THREADS; th++) {
            const unsigned long long wi = c * C63EC_THREADS + th;
            if (wi < nwords) {
                c63ec_stuff_word(pkt + C63EC_HEADER_SIZE + 4 * wi + before, words[wi], wi, nfull);
                before += c63ec_word_ff(words[wi], wi, nfull);
            }
        }
        nff += ffsum[c];
    }
    info->nff  = nff;
    info->size = C63EC_HEADER_SIZE + nfull + nff +
                 c63ec_tail(pkt + C63EC_HEADER_SIZE + nfull + nff, words, total);
}

/** Frame f (g, q as the encoder has them) through the c63 encoder's CPU
 *  writer, its rows in order on the calling thread, into pkt. */
static inline int c63_write_frame(AVCodecContext *avctx, C63Writer *w, AVPacket *pkt,
                                  const C63Geometry *g, const uint8_t q[3][64],
                                  const C63CodedFrame *f)
{
    int ret = ff_c63_write_begin(w, g);

    if (ret < 0)
        return ret;
    for (int v = 0; v < g->mb_h; v++)
        ff_c63_write_row(w, g, f, v);
    return ff_c63_write_end(avctx, w, pkt, g, q, f);
}

/** The buffers of c63ec_serial_write_frame(), kept between frames: those of
 *  the GPU coder's stages, in host memory. */
typedef struct C63ECSerialWriter {
    uint8_t  *mem;
    unsigned  mem_size;
} C63ECSerialWriter;

/**
 * Code frame f (g, q as the encoder has them) through the GPU coder's
 * stages run serially, c63ec_code_frame_cpu(), into pkt (allocated here):
 * the packet, header to EOI, that the CPU writer makes of it. The three
 * planes' coefficients and vectors must lie in one buffer each, in plane
 * order, as on the GPU.
 */
static inline int c63ec_serial_write_frame(C63ECSerialWriter *w, AVPacket *pkt, const C63Geometry *g,
                                       const uint8_t q[3][64], const C63CodedFrame *f)
{
    const int nblocks = 6 * g->mb_w * g->mb_h;
    C63ECParams p;
    uint64_t work, total;
    const C63ECInfo *info;
    uintptr_t base;
    int ret;

    if (sizeof(C63ECTables) != sizeof(C63HuffCodes) || sizeof(C63ECMV) != sizeof(C63MV))
        return AVERROR_BUG;
    memset(&p, 0, sizeof(p));
    work  = c63ec_init_params(&p, g->mb_w, g->mb_h, 0);
    total = work + c63ec_max_packet(nblocks) + 256;
    for (int i = 1; i < 3; i++)
        if (f->coef[i] != f->coef[0] + 64 * p.boff[i] ||
            (!f->keyframe && f->mv[i] != f->mv[0] + p.boff[i]))
            return AVERROR_BUG;
    if (total > INT_MAX)
        return AVERROR(EINVAL);
    av_fast_malloc(&w->mem, &w->mem_size, total);
    if (!w->mem)
        return AVERROR(ENOMEM);
    base = FFALIGN((uintptr_t)w->mem, 256);
    c63ec_init_params(&p, g->mb_w, g->mb_h, base);
    memcpy((void *)(uintptr_t)p.tables, &ff_c63_huff, sizeof(ff_c63_huff));
    ff_c63_write_header((uint8_t *)(uintptr_t)p.hdr, g->width, g->height, 0, q);
    p.coef     = (uintptr_t)f->coef[0];
    p.mv       = (uintptr_t)f->mv[0];
    p.pkt      = base + work;
    p.keyframe = f->keyframe;
    c63ec_code_frame_cpu(&p);

    info = (const C63ECInfo *)(uintptr_t)p.info;
    if ((ret = av_new_packet(pkt, (int)info->size)) < 0)
        return ret;
    memcpy(pkt->data, (const void *)(uintptr_t)p.pkt, info->size);
    if (f->keyframe)
        pkt->flags |= AV_PKT_FLAG_KEY;
    return 0;
}

static inline void c63ec_serial_writer_free(C63ECSerialWriter *w)
{
    av_freep(&w->mem);
    w->mem_size = 0;
}

#endif /* TESTS_C63EC_SERIAL_H */
