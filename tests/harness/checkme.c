/*
 * checkme: the searches of kernels/me_search.h (the mestimate_cuda kernel's
 * code) against mestimate's own ff_me_search_* on the CPU
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
 * Usage: checkme [--seed N]
 *
 * For every per-block method (esa, tss, tdls, ntss, fss, ds, hexbs), block
 * sizes 8, 16, 32 and 64, search parameters 4, 5, 7, 16 and 32 and
 * frame sizes that are and are not multiples of the block size, from one
 * block up to 127x71, and four kinds of content (smooth with a shift, the
 * same with noise, a few grey levels that make many equal costs, a flat
 * picture whose costs are all zero): every block's vector from
 * me_search_block() must equal ff_me_search_*'s, with the context set up
 * exactly as vf_mestimate.c sets it up. "esa-keys" is esa as the parallel
 * kernel mestimate_esa computes it: the minimum of me_esa_key() over the
 * candidates, taken in another order; "esa-staged" as mestimate_esa_staged,
 * through me_esa_stage() and me_esa_key_staged(). Prints one line per method and
 * block size; the first mismatch is printed with its block and vectors,
 * and the exit status is 1.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavfilter/motion_estimation.h"
#include "cuda_kernels/me_search.h"

typedef uint64_t (*SearchFunc)(AVMotionEstContext *, int, int, int *);

static const struct {
    const char *name;
    int method;
    SearchFunc f;
    int keys;   ///< esa as the parallel kernels: 1 me_esa_key(), 2 staged
} methods[] = {
    { "esa",   ME_METHOD_ESA,   ff_me_search_esa   },
    { "tss",   ME_METHOD_TSS,   ff_me_search_tss   },
    { "tdls",  ME_METHOD_TDLS,  ff_me_search_tdls  },
    { "ntss",  ME_METHOD_NTSS,  ff_me_search_ntss  },
    { "fss",   ME_METHOD_FSS,   ff_me_search_fss   },
    { "ds",    ME_METHOD_DS,    ff_me_search_ds    },
    { "hexbs", ME_METHOD_HEXBS, ff_me_search_hexbs },
    { "esa-keys", ME_METHOD_ESA, ff_me_search_esa, 1 },
    { "esa-staged", ME_METHOD_ESA, ff_me_search_esa, 2 },
};

/* mestimate_esa's reduction, with the candidates taken in another order
 * (strided as the kernel's threads, last stride first) */
static void esa_by_keys(const MESearch *s, int x_mb, int y_mb, int *mv)
{
    const MEWindow w = me_window(s, x_mb, y_mb);
    const unsigned n = me_esa_count(&w);
    unsigned long long best = ~0ULL;
    int t, i;

    for (t = 255; t >= 0; t--)
        for (i = t; i < (int)n; i += 256) {
            unsigned long long k = me_esa_key(s, &w, x_mb, y_mb, i);
            best = k < best ? k : best;
        }
    me_esa_pos(&w, x_mb, y_mb, best, mv);
}

/* mestimate_esa_staged: the block and window copied by 256 "threads" into
 * a buffer of the size the filter gives the kernel, then the keys */
static int esa_staged(const MESearch *s, int x_mb, int y_mb, int *mv)
{
    const MEWindow w = me_window(s, x_mb, y_mb);
    const unsigned n = me_esa_count(&w);
    unsigned long long best = ~0ULL;
    unsigned char *buf;
    MESearch st;
    int stride, lines, t, i;

    me_esa_stage_size(s->mb_size, s->search_param, s->x_max, s->y_max, &stride, &lines);
    buf = malloc((size_t)stride * lines);
    if (!buf)
        return -1;
    memset(buf, 0xA5, (size_t)stride * lines);
    for (t = 0; t < 256; t++)
        me_esa_stage(s, &w, x_mb, y_mb, buf, stride, t, 256, &st);
    for (t = 255; t >= 0; t--)
        for (i = t; i < (int)n; i += 256) {
            unsigned long long k = me_esa_key_staged(&st, &w, x_mb, y_mb, i);
            best = k < best ? k : best;
        }
    free(buf);
    me_esa_pos(&w, x_mb, y_mb, best, mv);
    return 0;
}

static uint32_t rng = 1;
static unsigned rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

enum { SMOOTH, NOISY, LEVELS, FLAT, NB_CONTENT };
static const char *const content_names[] = { "smooth", "noisy", "levels", "flat" };

/* cur is ref moved by (dx, dy) with local warps, so that searches travel */
static void fill(uint8_t *cur, uint8_t *ref, int w, int h, int stride, int kind)
{
    const int dx = (int)(rnd() % 11) - 5, dy = (int)(rnd() % 11) - 5;
    const int fx = 3 + rnd() % 9, fy = 3 + rnd() % 9;
    int x, y;

    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int xs = x + dx + ((y / 13) & 1), ys = y + dy + ((x / 17) % 3 == 0);
            int r = 128 + (int)(60 * ((x * fx + y * fy) % 97) / 97) - (x * y % 23);
            int c = 128 + (int)(60 * ((xs * fx + ys * fy) % 97) / 97) - (xs * ys % 23);
            if (kind == NOISY) {
                r += (int)(rnd() % 21) - 10;
                c += (int)(rnd() % 21) - 10;
            } else if (kind == LEVELS) {
                r = (r / 64) * 64;
                c = (c / 64) * 64;
            } else if (kind == FLAT) {
                r = c = 77;
            }
            ref[y * stride + x] = r < 0 ? 0 : r > 255 ? 255 : r;
            cur[y * stride + x] = c < 0 ? 0 : c > 255 ? 255 : c;
        }
}

static int check(int mi, int mb_req, int p, int w, int h, int kind, long *searches)
{
    const int log2_mb = av_ceil_log2_c(mb_req), mb = 1 << log2_mb;
    const int bw = w >> log2_mb, bh = h >> log2_mb;
    const int stride = w + 13;
    uint8_t *cur, *ref;
    AVMotionEstContext me;
    MESearch s;
    int bx, by, ret = 0;

    if (!bw || !bh)
        return 0;   /* mestimate refuses such a frame */
    cur = calloc((size_t)stride * (h + 1), 1);
    ref = calloc((size_t)stride * (h + 1), 1);
    if (!cur || !ref) {
        free(cur);
        free(ref);
        fprintf(stderr, "checkme: out of memory\n");
        return -1;
    }
    fill(cur, ref, w, h, stride, kind);

    /* as vf_mestimate.c's config_input and filter_frame */
    memset(&me, 0, sizeof(me));
    ff_me_init_context(&me, mb, p, w, h, 0, (bw - 1) << log2_mb, 0, (bh - 1) << log2_mb);
    me.data_cur = cur;
    me.data_ref = ref;
    me.linesize = stride;

    s.cur = cur;
    s.ref = ref;
    s.linesize = stride;
    s.mb_size = mb;
    s.search_param = p;
    s.x_min = 0;
    s.x_max = (bw - 1) << log2_mb;
    s.y_min = 0;
    s.y_max = (bh - 1) << log2_mb;

    for (by = 0; by < bh && !ret; by++)
        for (bx = 0; bx < bw; bx++) {
            const int x_mb = bx << log2_mb, y_mb = by << log2_mb;
            int a[2] = { x_mb, y_mb }, b[2] = { x_mb, y_mb };
            methods[mi].f(&me, x_mb, y_mb, a);
            if (methods[mi].keys == 2) {
                if (esa_staged(&s, x_mb, y_mb, b) < 0) {
                    ret = -1;
                    break;
                }
            } else if (methods[mi].keys)
                esa_by_keys(&s, x_mb, y_mb, b);
            else
                me_search_block(&s, methods[mi].method, x_mb, y_mb, b);
            (*searches)++;
            if (a[0] != b[0] || a[1] != b[1]) {
                printf("MISMATCH %s mb_size %d search_param %d %dx%d %s block (%d,%d): "
                       "ff_me_search_%s (%d,%d), me_search_block (%d,%d)\n",
                       methods[mi].name, mb_req, p, w, h, content_names[kind],
                       x_mb, y_mb, methods[mi].name, a[0], a[1], b[0], b[1]);
                ret = 1;
                break;
            }
        }
    free(cur);
    free(ref);
    return ret;
}

int main(int argc, char **argv)
{
    static const int mb_sizes[] = { 8, 12, 16, 32, 64 };
    static const int params[]   = { 4, 5, 7, 16, 32 };
    static const int sizes[][2] = { { 8, 8 }, { 17, 9 }, { 64, 64 }, { 65, 33 },
                                    { 96, 64 }, { 127, 71 } };
    int fail = 0, i, mi, m, p, sz, k;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            rng = strtoul(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
            return 2;
        }
    }

    for (mi = 0; mi < (int)(sizeof(methods) / sizeof(methods[0])); mi++)
        for (m = 0; m < (int)(sizeof(mb_sizes) / sizeof(mb_sizes[0])); m++) {
            long searches = 0;
            int bad = 0;
            for (p = 0; p < (int)(sizeof(params) / sizeof(params[0])) && !bad; p++)
                for (sz = 0; sz < (int)(sizeof(sizes) / sizeof(sizes[0])) && !bad; sz++)
                    for (k = 0; k < NB_CONTENT && !bad; k++) {
                        int r = check(mi, mb_sizes[m], params[p], sizes[sz][0],
                                      sizes[sz][1], k, &searches);
                        if (r < 0)
                            return 1;
                        bad = r;
                    }
            printf("%-6s mb_size %-3d %s\n", methods[mi].name, mb_sizes[m],
                   bad ? "FAILED" : "ok");
            if (!searches && !bad) {
                printf("%-6s mb_size %-3d: no block searched\n", methods[mi].name, mb_sizes[m]);
                bad = 1;
            }
            fail |= bad;
        }
    return fail;
}
