/*
 * The CPU twin of the parallel c63 entropy decoding
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
 * c63hd_decode_cpu(): the stages of cuda_kernels/c63_hdec.h as the CUDA
 * kernels of c63_cuda_dec.cu run them (the same chunks, segments,
 * guesses, links, groups, rounds and resolution), their units one after
 * the other: what the GPU computes, on the CPU, for the tests to hold
 * against the serial decoder.
 */

#ifndef TESTS_C63HD_SERIAL_H
#define TESTS_C63HD_SERIAL_H

#include <stdint.h>
#include <string.h>

#include "cuda_kernels/c63_hdec.h"
#include "cuda_kernels/c63_ec.h"

/** The units of one group's synchronisation (c63_hd_sync, c63_hd_resolve):
 *  unit 0 the overlap (or, for the first group, the stream's start), unit u
 *  segment s0 + u - 1. Rounds as the kernels run them: every unit reads
 *  its predecessor's exit of the last round. Returns the rounds taken. */
static inline int c63hd_group_rounds(const C63HDParams *p, const unsigned char *data,
                                     const C63HDTables *t, unsigned limit, int s0, int n,
                                     c63hd_state *en, c63hd_state *ex, C63HDSum *sum)
{
    c63hd_state prev[C63HD_GROUP];
    int rounds = 0, changed;

    do {
        changed = 0;
        for (int u = 1; u < n; u++)
            prev[u] = ex[u - 1];
        for (int u = 1; u < n; u++) {
            if (prev[u] == en[u])
                continue;
            en[u] = prev[u];
            memset(&sum[u], 0, sizeof(sum[u]));
            const size_t seg = (size_t)(s0 + u - 1);
            ex[u] = c63hd_run_seg(data, t, p->keyframe, en[u], (int)seg, limit, &sum[u],
                                  (c63hd_state *)(uintptr_t)p->cp + seg * C63HD_REC,
                                  (C63HDSum *)(uintptr_t)p->cps + seg * C63HD_REC,
                                  (const c63hd_state *)(uintptr_t)p->guess +
                                  seg * C63HD_GUESSES * C63HD_REC,
                                  (const C63HDSum *)(uintptr_t)p->gsums +
                                  seg * C63HD_GUESSES * C63HD_REC);
            changed = 1;
        }
        rounds++;
    } while (changed && rounds <= C63HD_GROUP);
    return rounds;
}

/* A group's units back into the segments' arrays. */
static inline void c63hd_group_store(int s0, int n, const c63hd_state *en, const c63hd_state *ex,
                                     const C63HDSum *sum, c63hd_state *entry, c63hd_state *exit_,
                                     C63HDSum *sums)
{
    for (int u = 1; u < n; u++) {
        entry[s0 + u - 1] = en[u];
        exit_[s0 + u - 1] = ex[u];
        sums[s0 + u - 1]  = sum[u];
    }
}

/* One pass of the resolution: the groups C63HD_LANES at a time, in order;
 * those of a batch whose overlap missed their predecessor's exit as it
 * was when the batch began decoded again from it. Returns the groups
 * decoded again (p->status's redone counts them). */
static inline int c63hd_resolve_pass(const C63HDParams *p, const unsigned char *data,
                                     const C63HDTables *t, unsigned limit, c63hd_state *entry,
                                     c63hd_state *exit_, C63HDSum *sums)
{
    C63HDStatus *st = (C63HDStatus *)(uintptr_t)p->status;
    int redone = 0;

    for (int g0 = 1; g0 < p->ngroups; g0 += C63HD_LANES) {
        c63hd_state overlap[C63HD_LANES];
        int redo[C63HD_LANES];
        for (int l = 0; l < C63HD_LANES && g0 + l < p->ngroups; l++) {
            int s0;
            c63hd_group(p->nsegs, g0 + l, &s0);
            redo[l]    = entry[s0] != exit_[s0 - 1];
            overlap[l] = exit_[s0 - 1];
        }
        for (int l = 0; l < C63HD_LANES && g0 + l < p->ngroups; l++) {
            c63hd_state en[C63HD_GROUP], ex[C63HD_GROUP];
            C63HDSum sum[C63HD_GROUP];
            int s0;
            const int n = c63hd_group(p->nsegs, g0 + l, &s0);
            if (!redo[l])
                continue;
            en[0] = ex[0] = overlap[l];
            memset(&sum[0], 0, sizeof(sum[0]));
            for (int u = 1; u < n; u++) {
                en[u]  = entry[s0 + u - 1];
                ex[u]  = exit_[s0 + u - 1];
                sum[u] = sums[s0 + u - 1];
            }
            c63hd_group_rounds(p, data, t, limit, s0, n, en, ex, sum);
            c63hd_group_store(s0, n, en, ex, sum, entry, exit_, sums);
            redone++;
        }
    }
    st->redone += redone;
    return redone;
}

/**
 * Decode the stuffed data p->pkt (p->pkt_size bytes and a zero byte
 * after) into the buffers of p, all on the host: data (pkt_size +
 * C63HD_PAD bytes), chunks, entry, exit, sums (nsegs each), start
 * (nblocks + 1), info (nblocks), cp and cps (C63HD_REC nsegs each),
 * guess, gsums, lcp and lcps (C63HD_GUESSES C63HD_REC nsegs each), link (8 nsegs),
 * coef (64 nblocks, zeroed by the caller as the hwaccel zeroes it) and
 * mv. status receives the marker, the size and the first error.
 */
static inline void c63hd_decode_cpu(const C63HDParams *p)
{
    const unsigned char *pkt = (const unsigned char *)(uintptr_t)p->pkt;
    unsigned char *data      = (unsigned char *)(uintptr_t)p->data;
    unsigned *chunks         = (unsigned *)(uintptr_t)p->chunks;
    C63HDStatus *st          = (C63HDStatus *)(uintptr_t)p->status;
    const C63HDTables *t     = (const C63HDTables *)(uintptr_t)p->tables;
    c63hd_state *entry       = (c63hd_state *)(uintptr_t)p->entry;
    c63hd_state *exit_       = (c63hd_state *)(uintptr_t)p->exit;
    C63HDSum *sums           = (C63HDSum *)(uintptr_t)p->sums;
    c63hd_state *cp          = (c63hd_state *)(uintptr_t)p->cp;
    C63HDSum *cps            = (C63HDSum *)(uintptr_t)p->cps;
    c63hd_state *guess       = (c63hd_state *)(uintptr_t)p->guess;
    C63HDSum *gsums          = (C63HDSum *)(uintptr_t)p->gsums;
    unsigned char *link      = (unsigned char *)(uintptr_t)p->link;
    unsigned *start          = (unsigned *)(uintptr_t)p->start;
    unsigned *info           = (unsigned *)(uintptr_t)p->info;
    signed char *mv          = (signed char *)(uintptr_t)p->mv;
    unsigned size, limit, before = 0;

    st->marker = C63HD_NOMARKER;
    st->size   = 0;
    st->error  = C63HD_NO_ERROR;
    st->redone = 0;
    memset(data, 0, (size_t)p->pkt_size + C63HD_PAD);
    memset(start, 0xFF, sizeof(*start) * ((size_t)p->nblocks + 1));
    memset(info, 0, sizeof(*info) * (size_t)p->nblocks);

    /* 1. unstuffing: c63_hd_chunks, then c63_hd_unstuff */
    for (int c = 0; c < p->nchunks; c++) {
        const int i0 = c * C63HD_CHUNK, i1 = i0 + C63HD_CHUNK < p->pkt_size ? i0 + C63HD_CHUNK
                                                                            : p->pkt_size;
        chunks[c] = 0;
        for (int i = i0; i < i1; i++) {
            chunks[c] += c63hd_stuffed(pkt, i);
            if (c63hd_marker(pkt, i) && (unsigned)i < st->marker)
                st->marker = i;
        }
    }
    if (st->marker == C63HD_NOMARKER || pkt[st->marker + 1] != 0xD9)
        return;
    for (int c = 0; c < p->nchunks; c++) {
        const int i0 = c * C63HD_CHUNK;
        unsigned o = i0 - before;
        for (int i = i0; i < i0 + C63HD_CHUNK && (unsigned)i < st->marker; i++) {
            if (!c63hd_stuffed(pkt, i))
                data[o++] = pkt[i];
        }
        if ((unsigned)i0 <= st->marker && st->marker < (unsigned)(i0 + C63HD_CHUNK)) {
            unsigned n = 0;
            for (int i = i0; (unsigned)i < st->marker; i++)
                n += c63hd_stuffed(pkt, i);
            st->size = st->marker - before - n;
        }
        before += chunks[c];
    }
    size  = st->size;
    limit = c63hd_limit(size);

    /* 2. synchronisation: the guesses (c63_hd_guess, a guess a thread),
     * the links (c63_hd_link, an entry a thread), the chain (c63_hd_chain,
     * a scan) and the rounds (c63_hd_sync, a group a thread block) */
    for (int s = 0; s < p->nsegs; s++) {
        for (int c = 0; c < C63HD_GUESSES; c++) {
            const size_t r = ((size_t)s * C63HD_GUESSES + c) * C63HD_REC;
            C63HDSum gsum = { 0 };
            c63hd_run_seg(data, t, p->keyframe, C63HD_GUESS(s, c), s, limit, &gsum,
                          guess + r, gsums + r, NULL, NULL);
        }
    }
    for (int s = 0; s < p->nsegs; s++)
        for (int c = 0; c < C63HD_GUESSES; c++)
            link[8 * (size_t)s + c] = (unsigned char)c63hd_link(p, data, t, limit, s, c);
    for (int s = 0, x = 0; s < p->nsegs; s++) {
        x = link[8 * (size_t)s + x];
        link[8 * (size_t)s + 6] = (unsigned char)x;
    }
    for (int g = 0; g < p->ngroups; g++) {
        c63hd_state en[C63HD_GROUP], ex[C63HD_GROUP];
        C63HDSum sum[C63HD_GROUP];
        int s0;
        const int n = c63hd_group(p->nsegs, g, &s0);
        memset(sum, 0, sizeof(sum));
        for (int u = 0; u < n; u++)
            c63hd_unit_start(p, s0, u, &en[u], &ex[u], &sum[u]);
        c63hd_group_rounds(p, data, t, limit, s0, n, en, ex, sum);
        c63hd_group_store(s0, n, en, ex, sum, entry, exit_, sums);
    }

    /* 3. resolution: c63_hd_resolve, one thread block */
    while (c63hd_resolve_pass(p, data, t, limit, entry, exit_, sums))
        ;
    {
        C63HDSum acc = { 0 };
        for (int s = 0; s < p->nsegs; s++) {
            const C63HDSum v = sums[s];
            sums[s] = acc;
            acc.blocks += v.blocks;
            for (int i = 0; i < 3; i++)
                acc.dc[i] += v.dc[i];
        }
    }

    /* 4. writing: c63_hd_write, a part of a segment a thread */
    for (int i = 0; i < p->nsegs * C63HD_SUB; i++) {
        const int s = i / C63HD_SUB, j = i % C63HD_SUB, r = s * C63HD_REC + j;
        C63HDSum sum = { 0 };
        C63HDOut o;
        o.p     = *p;
        o.error = &st->error;
        for (int c = 0; c < 3; c++)
            o.dc[c] = sums[s].dc[c] + cps[r].dc[c];
        c63hd_begin_block(&o, sums[s].blocks + cps[r].blocks - 1);
        c63hd_run(data, t, p->keyframe, cp[r],
                  (unsigned)s * C63HD_SEG_BITS + (unsigned)(j + 1) * C63HD_SUB_BITS, limit,
                  &sum, &o);
    }

    /* 5. vectors and row ends: c63_hd_fixup, a block row a warp */
    for (int plane = 0; plane < 3; plane++)
        for (int by = 0; by < p->bh[plane]; by++) {
            unsigned left = 0, src = 0;
            for (int bx = 0; bx < p->bw[plane]; bx++) {
                const unsigned in = info[c63hd_coding_index(p, plane, bx, by)];
                c63hd_u64 key;
                if ((in & 3) == 1)
                    src = in;
                key = c63hd_vector(p, plane, bx, by, in, left, src,
                                   mv + 2 * ((size_t)p->first[plane] + by * p->bw[plane] + bx));
                if (key < st->error)
                    st->error = key;
                left = in;
            }
        }
    for (int v = 0; v < p->mb_h; v++) {
        const c63hd_u64 key = c63hd_row_end(p, start, size, v);
        if (key < st->error)
            st->error = key;
    }
}

#endif /* TESTS_C63HD_SERIAL_H */
