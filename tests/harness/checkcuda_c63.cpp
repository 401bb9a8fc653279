/*
 * checkcuda: the c63_cuda encoder's kernels
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
 * Every kernel of cuda_kernels/c63_cuda_enc.cu and c63_cuda_rd.cu (the
 * encoder's) against its CPU twin: the
 * conversion, the motion search (the CPU encoder's ff_c63_motion_search),
 * the transform and reconstruction (the DSP's sub_pred/add_pred and the
 * transcriptions of the reference transform in tests/harness/c63ref.h),
 * the vector choice, the scene cuts and the activity, and the entropy
 * coder's kernels c63_ec_* (the serial coder of
 * tests/harness/c63ec_serial.h, itself compared with the CPU writer); and
 * their benchmark.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavcodec/me_cmp.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63dsp.h"
#include "libavcodec/c63/c63me.h"
#include "libavcodec/c63/c63enc.h"

extern const unsigned char ff_c63_cuda_enc_ptx_data[];
extern const unsigned int ff_c63_cuda_enc_ptx_len;
extern const unsigned char ff_c63_cuda_rd_ptx_data[];
extern const unsigned int ff_c63_cuda_rd_ptx_len;
extern const unsigned char ff_c63_cuda_dec_ptx_data[];
extern const unsigned int ff_c63_cuda_dec_ptx_len;
}
#include "cuda_kernels/block_match.h"
#include "cuda_kernels/c63_convert.h"
#include "cuda_kernels/c63_transform.h"
#include "cuda_kernels/c63_ec.h"
#include "cuda_kernels/c63_hdec.h"
#include "libavcodec/c63/c63scene.h"
#include "tests/c63/harness/c63_ec_frames.h"
#include "tests/c63/harness/c63ref.h"
#include "tests/c63/harness/c63ec_serial.h"
#include "tests/c63/harness/checkcuda.h"

static CUmodule module, module_rd;    /* c63_cuda_enc.cu's, c63_cuda_rd.cu's */
static CUfunction f_encode_rdq, f_dc_chain, f_recon;
static CUfunction f_convert, f_encode, f_encode_rd, f_mv_rd_pre, f_mv_rd;
static CUfunction f_sc_hist, f_sc_decide, f_activity;
static CUdeviceptr d_scene;             /* c63_scene of the module */
static CUmodule module_dec;             /* c63_cuda_dec.cu's */
static CUfunction f_hd_chunks, f_hd_unstuff;
/* the c63_meN kernels: N = me_nrs[i] */
static const int me_nrs[] = { 8, 16 };
static CUfunction f_me[FF_ARRAY_ELEMS(me_nrs)];

/* The entropy coder's kernels, in launch order (c63_cuda_enc.cu). */
enum { EC_CODE, EC_SUM, EC_APPLY, EC_GATHER, EC_STUFF, NB_EC };
static const char *const ec_names[NB_EC] = {
    "c63_ec_code", "c63_ec_sum", "c63_ec_apply", "c63_ec_gather", "c63_ec_stuff",
};
static CUfunction f_ec[NB_EC];

/* ------------------------------------------------------------ convert */

/*
 * One launch for a frame's three planes, as the encoder makes it: luma
 * planar, chroma planar or one interleaved UV plane (step 2), with pitches
 * that keep every row aligned (the 8- and 16-byte loads) or none (+37:
 * the byte loads), and the source 1 byte off its allocation in the
 * unaligned case.
 */
static void test_convert(void)
{
    static const int sizes[][2] = { { 16, 16 }, { 1, 1 }, { 17, 9 }, { 176, 100 },
                                    { 720, 577 }, { 1920, 1080 }, { 46, 30 } };
    for (auto &sz : sizes) {
        if ((long)sz[0] * sz[1] > max_area)
            continue;
        for (int step = 1; step <= 2; step++)
            for (int aligned = 0; aligned <= 1; aligned++) {
                C63Geometry g;
                ff_c63_geometry(&g, sz[0], sz[1]);
                C63ConvParams cp;
                std::vector<uint8_t> src[3], exp[3], out[3];
                std::vector<DevBuf *> bufs;
                int nsrc = step == 2 ? 2 : 3;
                size_t doff[3], dtotal = 0;
                for (int p = 0; p < 3; p++) {
                    doff[p] = dtotal;
                    dtotal += (size_t)g.w[p] * g.h[p];
                }
                DevBuf dd(dtotal);
                CK(cu->cuMemsetD8Async(dd.p, 0xAA, dtotal, NULL));
                for (int p = 0; p < nsrc; p++) {
                    int sw = p ? (sz[0] + 1) / 2 : sz[0], sh = p ? (sz[1] + 1) / 2 : sz[1];
                    int bytes = sw * (p ? step : 1);
                    int pitch = aligned ? (bytes + 63) & ~63 : bytes + 37;
                    int off = aligned ? 0 : 1;
                    src[p].resize((size_t)pitch * sh + off);
                    for (auto &b : src[p]) b = rnd();
                    DevBuf *db = new DevBuf(src[p].size());
                    db->up(src[p].data(), src[p].size());
                    bufs.push_back(db);
                    for (int q = p; q < (step == 2 && p ? 3 : p + 1); q++) {
                        C63ConvPlane *c = &cp.p[q];
                        c->dst   = dd.p + doff[q];
                        c->dw    = g.w[q];
                        c->dh    = g.h[q];
                        c->src   = db->p + off + (step == 2 && q ? q - 1 : 0);
                        c->pitch = pitch;
                        c->sw    = sw;
                        c->sh    = sh;
                        c->step  = q ? step : 1;
                        exp[q].assign((size_t)g.w[q] * g.h[q], 0);
                        for (int y = 0; y < sh; y++)
                            for (int x = 0; x < sw; x++)
                                exp[q][(size_t)y * g.w[q] + x] =
                                    src[p][off + (size_t)y * pitch + x * c->step +
                                           (step == 2 && q ? q - 1 : 0)];
                    }
                }
                void *args[] = { &cp };
                launch(f_convert, c63_conv_layout(&cp), 1, C63_CONV_THREADS, 1, 0, args);
                std::string detail;
                for (int q = 0; q < 3 && detail.empty(); q++) {
                    out[q].resize(exp[q].size());
                    CK(cu->cuMemcpyDtoH(out[q].data(), dd.p + doff[q], out[q].size()));
                    for (size_t i = 0; i < out[q].size(); i++)
                        if (out[q][i] != exp[q][i]) {
                            char buf[256];
                            snprintf(buf, sizeof(buf), "plane %d (%dx%d): first mismatch at "
                                     "(%d, %d): gpu %d, cpu %d", q, g.w[q], g.h[q],
                                     (int)(i % g.w[q]), (int)(i / g.w[q]), out[q][i], exp[q][i]);
                            detail = buf;
                            break;
                        }
                }
                for (DevBuf *db : bufs)
                    delete db;
                char name[96];
                snprintf(name, sizeof(name), "convert %dx%d %s %s", sz[0], sz[1],
                         step == 1 ? "planar" : "interleaved", aligned ? "aligned" : "unaligned");
                report(name, detail.empty(), detail);
            }
    }
}

/* ----------------------------------------------------- motion search */

/* the launch of c63_me<nr> as the encoder computes it */
static void me_params(int r, int nr, int *win_stride, int *win_rows, int *threads)
{
    *win_stride = BM_STRIDE(8, 2 * r);
    *win_rows   = BM_ROWS_N(8, 2 * r, nr);
    *threads    = C63_ME_THREADS(r, nr);
}

static CUfunction me_kernel(int nr)
{
    for (int i = 0; i < (int)FF_ARRAY_ELEMS(me_nrs); i++)
        if (me_nrs[i] == nr)
            return f_me[i];
    fprintf(stderr, "checkcuda: no c63_me kernel for %d rows\n", nr);
    exit(1);
}

static MECmpContext mecc;

/* c63_me<nr> over two w x h planes in one launch (gridDim.z = 2, as the
 * encoder's chroma): plane z's current picture is cur[z], its reference
 * ref[z] */
static void run_me(const uint8_t *const cur[2], const uint8_t *const ref[2], int w, int h,
                   int r, int nr, C63MV *out)
{
    const size_t n = (size_t)w * h;
    int nb = (w / 8) * (h / 8), ws, wr, threads, zstride = (int)n, sc = 0;
    DevBuf dc(2 * n), dr(2 * n), dm(2 * nb * sizeof(C63MV));
    for (int z = 0; z < 2; z++) {
        CK(cu->cuMemcpyHtoD(dc.p + z * n, cur[z], n));
        CK(cu->cuMemcpyHtoD(dr.p + z * n, ref[z], n));
    }
    me_params(r, nr, &ws, &wr, &threads);
    CUdeviceptr mv = dm.p, c = dc.p, rf = dr.p;
    void *args[] = { &mv, &c, &rf, &w, &h, &r, &ws, &zstride, &sc };
    launch3(me_kernel(nr), w / 8, h / 8, 2, threads, 1, ws * wr, args);
    dm.down(out, 2 * nb * sizeof(C63MV));
}

static int sad8(const uint8_t *a, const uint8_t *b, int stride)
{
    int s = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            s += abs(a[i * stride + j] - b[i * stride + j]);
    return s;
}

static void test_me_case(int w, int h, int r, Content content, bool related)
{
    if ((long)w * h > max_area)
        return;
    std::vector<uint8_t> cur((size_t)w * h), ref((size_t)w * h);
    std::vector<uint16_t> sums((size_t)w * h);
    int bw = w / 8, bh = h / 8;
    std::vector<C63MV> gpu(2 * bw * bh), cpu(2 * bw * bh);

    fill(ref, w, h, content, 0);
    if (related) {
        /* the current picture is the reference moved and lightly changed */
        int dx = (int)(rnd() % 7) - 3, dy = (int)(rnd() % 7) - 3;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int sx = x + dx, sy = y + dy;
                int v = sx >= 0 && sx < w && sy >= 0 && sy < h ? ref[(size_t)sy * w + sx] : 0;
                if ((rnd() & 15) == 0)
                    v = (v + (int)(rnd() % 9) - 4) & 255;
                cur[(size_t)y * w + x] = v;
            }
    } else {
        fill(cur, w, h, content, 5);
    }

    /* plane 0 searches cur in ref, plane 1 (the second plane of the same
     * launch) ref in cur */
    const uint8_t *const pc[2] = { cur.data(), ref.data() }, *const pr[2] = { ref.data(), cur.data() };
    for (int z = 0; z < 2; z++) {
        ff_c63_block_sums(nullptr, sums.data(), pr[z], w, h, 0, h);
        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++)
                cpu[z * bw * bh + by * bw + bx] =
                    ff_c63_motion_search(&mecc, pc[z], pr[z], sums.data(), w, h, bx, by, r);
    }

    static const char *const cn[] = { "random", "flat", "smooth", "two-level" };
    for (int nr : me_nrs) {
        std::string detail;
        run_me(pc, pr, w, h, r, nr, gpu.data());
        for (int b = 0; b < 2 * bw * bh; b++)
            if (gpu[b].x != cpu[b].x || gpu[b].y != cpu[b].y) {
                const int z = b / (bw * bh), bx = b % bw, by = b % (bw * bh) / bw;
                const uint8_t *blk = pc[z] + (size_t)8 * by * w + 8 * bx;
                const uint8_t *base = pr[z] + (size_t)8 * by * w + 8 * bx;
                char buf[320];
                snprintf(buf, sizeof(buf), "%dx%d plane %d, range %d: first mismatch at block "
                         "(%d, %d): gpu (%d, %d) sad %d, cpu (%d, %d) sad %d", w, h, z, r, bx, by,
                         gpu[b].x, gpu[b].y, sad8(blk, base + gpu[b].y * w + gpu[b].x, w),
                         cpu[b].x, cpu[b].y, sad8(blk, base + cpu[b].y * w + cpu[b].x, w));
                detail = buf;
                break;
            }
        char name[96];
        snprintf(name, sizeof(name), "me%d %dx%d r%d %s%s%s", nr, w, h, r, cn[content],
                 related ? " moved" : "", nr == C63_ME_NR(r) ? " (encoder's)" : "");
        report(name, detail.empty(), detail);
    }
}

static void test_me(void)
{
    /* 8x8 and 16x16 planes: empty windows (and chroma of 16x16 luma). */
    test_me_case(8, 8, 8, RANDOM, false);
    test_me_case(16, 16, 8, RANDOM, false);
    test_me_case(16, 16, 16, RANDOM, true);
    test_me_case(24, 16, 4, SMOOTH, true);
    test_me_case(176, 144, 16, RANDOM, true);
    test_me_case(176, 144, 16, FLAT, false);
    test_me_case(176, 144, 16, FEW_LEVELS, false);
    test_me_case(88, 72, 8, SMOOTH, true);
    test_me_case(88, 72, 8, FEW_LEVELS, true);
    test_me_case(176, 104, 16, SMOOTH, true);
    test_me_case(352, 288, 16, SMOOTH, true);
    test_me_case(176, 144, 1, RANDOM, true);
    test_me_case(176, 144, 0, RANDOM, true);
    test_me_case(176, 144, 3, SMOOTH, true);
    test_me_case(176, 144, 7, FEW_LEVELS, true);
    test_me_case(320, 240, 64, SMOOTH, true);
    test_me_case(160, 120, 32, RANDOM, true);
    test_me_case(1920, 1088, 16, SMOOTH, true);
}

/* ------------------------------------------ transform and reconstruction */

/* The three planes of a w x h frame as the encoder lays them out one after
 * the other: luma, then two chroma planes of half the size rounded up to
 * whole blocks. Returns the samples of all three. */
static size_t plane_layout(int w, int h, int pw[3], int ph[3], size_t off[3])
{
    size_t total = 0;
    pw[0] = w;
    ph[0] = h;
    pw[1] = pw[2] = (w / 2 + 7) / 8 * 8;
    ph[1] = ph[2] = (h / 2 + 7) / 8 * 8;
    for (int p = 0; p < 3; p++) {
        off[p] = total;
        total += (size_t)pw[p] * ph[p];
    }
    return total;
}

/* c63_encode's parameters; returns the launch's thread block count. */
static int enc_params(C63EncParams *ep, CUdeviceptr coef, CUdeviceptr rec, CUdeviceptr mv,
                      CUdeviceptr orig, CUdeviceptr ref, CUdeviceptr q, int key,
                      const int pw[3], const int ph[3], int limit_ac = 0)
{
    ep->coef = coef;
    ep->rec  = rec;
    ep->mv   = mv;
    ep->orig = orig;
    ep->ref  = ref;
    ep->q    = q;
    ep->key  = key;
    ep->limit_ac = limit_ac;
    ep->scene = d_scene;
    return c63_enc_layout(ep, pw, ph);
}

/*
 * One launch for three planes, as the encoder runs it: w x h luma and two
 * chroma planes of half the size (rounded up to whole blocks), each with
 * its own content, vectors and quantisation table, against the CPU's
 * sub_pred, c63_fdct_quant_ref, c63_dequant_idct_ref and add_pred. With
 * limit_ac (rate control), the AC levels are clamped between quantisation
 * and dequantisation, to +-511 for luma and +-1023 for chroma, as
 * ff_c63_encode_row() does. With lambda, c63_encode_rd against the same
 * and c63_rd_quant() after the limit, on ff_c63_fdct_z4's transform
 * (-trellis). With dc (-trellis 2; w and h multiples of 16), c63_encode_rdq,
 * c63_dc_chain and c63_recon against the same and c63_rd_dc_chain() on
 * every MCU row between the levels and the reconstruction.
 */
static void test_encode_case(int w, int h, int qp, int key, Content content, int limit_ac = 0,
                             long long lambda = 0, int dc = 0)
{
    if ((long)w * h > max_area)
        return;
    C63DSPContext dsp;
    uint8_t q[3][64];
    int pw[3], ph[3];
    size_t off[3];
    const size_t total = plane_layout(w, h, pw, ph, off);
    const size_t nb = total / 64;
    std::vector<uint8_t> orig(total), ref(total), rec_cpu(total), rec_gpu(total);
    std::vector<int16_t> coef_cpu(nb * 64), coef_gpu(nb * 64);
    std::vector<C63MV> mv(nb);
    long clamped = 0;       /* levels past the limit (limit_ac) */
    long trellised = 0;     /* levels the trellis changed */
    long dc_moved = 0;      /* DC levels the chain changed */
    std::vector<int> dcz(nb);
    std::vector<uint8_t> dcb(nb);
    std::vector<int16_t> dc_before(nb);     /* the DCs as quantised */
    std::vector<size_t> block_at(nb);       /* each block's first sample */
    std::vector<const uint8_t *> block_pred(nb);

    ff_c63dsp_init(&dsp);
    ff_c63_quant_tables(q, C63_TABLES_ANNEXK, qp);
    for (int p = 0; p < 3; p++) {
        const int pwp = pw[p], php = ph[p], bw = pwp / 8, bh = php / 8;
        std::vector<uint8_t> o((size_t)pwp * php), rf((size_t)pwp * php);
        fill(o, pwp, php, content, 3 * p);
        fill(rf, pwp, php, content == FLAT ? RANDOM : content, 3 * p + 3);
        if (content == FEW_LEVELS || content == EDGES) /* extreme residuals */
            for (size_t i = 0; i < rf.size(); i++)
                rf[i] = 255 - o[i];
        std::copy(o.begin(), o.end(), orig.begin() + off[p]);
        std::copy(rf.begin(), rf.end(), ref.begin() + off[p]);

        C63MV *m = mv.data() + off[p] / 64;
        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++) {
                /* any vector that stays inside the plane */
                C63MV *v = &m[by * bw + bx];
                int x = rnd() % (pwp - 7), y = rnd() % (php - 7);
                if (rnd() % 4 == 0)
                    x = 8 * bx, y = 8 * by;
                v->x = (int8_t)av_clip(x - 8 * bx, -64, 64);
                v->y = (int8_t)av_clip(y - 8 * by, -64, 64);
                if (8 * bx + v->x < 0 || 8 * bx + v->x > pwp - 8)
                    v->x = 0;
                if (8 * by + v->y < 0 || 8 * by + v->y > php - 8)
                    v->y = 0;
                if ((bx + 2 * by + p) % 7 == 3)     /* no vector: no prediction */
                    v->x = C63_MV_INTRA, v->y = 0;
            }

        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++) {
                const size_t b = off[p] / 64 + by * bw + bx;
                const size_t at = off[p] + (size_t)8 * by * pwp + 8 * bx;
                int16_t res[64];
                const uint8_t *pred = key || mv[b].x == C63_MV_INTRA ? NULL :
                                      ref.data() + at + (ptrdiff_t)mv[b].y * pwp + mv[b].x;
                block_at[b]   = at;
                block_pred[b] = pred;
                dsp.sub_pred(res, orig.data() + at, pwp, pred, pwp);
                int16_t *c = coef_cpu.data() + 64 * b;
                c63_fdct_quant_ref(c, res, q[p]);
                int z4[64];
                int16_t cz[64];
                if (lambda)
                    ff_c63_fdct_z4(z4, res);
                for (int k = 1; k < 64 && limit_ac; k++) {
                    const int lim = p ? 1023 : 511;
                    clamped += c[k] < -lim || c[k] > lim;
                    c[k] = av_clip(c[k], -lim, lim);
                }
                if (lambda) {
                    memcpy(cz, c, sizeof(cz));
                    c63_rd_quant(c, z4, q[p], ff_c63_huff.ac_len[!!p], lambda);
                    for (int k = 0; k < 64; k++)
                        trellised += cz[k] != c[k];
                    dcz[b] = z4[0];
                }
                dc_before[b] = c[0];
            }
        const size_t b0 = off[p] / 64, b1 = b0 + (size_t)bw * bh;
        for (int v = 0; dc && v < php / (p ? 8 : 16); v++)
            c63_rd_dc_chain(coef_cpu.data() + off[p], dcz.data() + b0, dcb.data() + b0, bw, v,
                            !p, q[p][0], ff_c63_huff.dc_len[!!p], lambda);
        for (size_t b = b0; b < b1; b++) {
            int16_t res[64];
            dc_moved += coef_cpu[64 * b] != dc_before[b];
            c63_dequant_idct_ref(res, coef_cpu.data() + 64 * b, q[p]);
            dsp.add_pred(rec_cpu.data() + block_at[b], pwp, block_pred[b], pwp, res);
        }
    }

    DevBuf dcoef(coef_gpu.size() * 2), drec(total), dmv(nb * sizeof(C63MV)),
           dorig(total), dref(total), dq(sizeof(q)), dlen(sizeof(ff_c63_huff.ac_len)),
           ddcz(nb * sizeof(int)), ddclen(sizeof(ff_c63_huff.dc_len));
    dlen.up(ff_c63_huff.ac_len, sizeof(ff_c63_huff.ac_len));
    ddclen.up(ff_c63_huff.dc_len, sizeof(ff_c63_huff.dc_len));
    dorig.up(orig.data(), total);
    dref.up(ref.data(), total);
    dmv.up(mv.data(), nb * sizeof(C63MV));
    dq.up(q, sizeof(q));
    CK(cu->cuMemsetD8Async(dcoef.p, 0x55, coef_gpu.size() * 2, NULL));
    CK(cu->cuMemsetD8Async(drec.p, 0x55, total, NULL));
    C63EncParams ep;
    const int blocks = enc_params(&ep, dcoef.p, drec.p, dmv.p, dorig.p, dref.p, dq.p, key, pw, ph,
                                  limit_ac);
    ep.lambda = lambda;
    ep.ac_len = dlen.p;
    ep.dcz    = ddcz.p;
    void *args[] = { &ep };
    if (dc) {
        C63DCChainParams dp = {};
        void *dargs[] = { &dp };
        dp.coef   = dcoef.p;
        dp.dcz    = ddcz.p;
        dp.q      = dq.p;
        dp.dc_len = ddclen.p;
        dp.lambda = lambda;
        for (int p = 0; p < 3; p++) {
            dp.p[p].bw          = pw[p] / 8;
            dp.p[p].first       = ep.p[p].first;
            dp.p[p].first_chain = dp.nchains;
            dp.nchains         += ph[p] / (p ? 8 : 16);
        }
        launch(f_encode_rdq, blocks, 1, C63_ENC_THREADS, 1, 0, args);
        launch(f_dc_chain, dp.nchains, 1, 32, 1, 0, dargs);
        launch(f_recon, blocks, 1, C63_ENC_THREADS, 1, 0, args);
    } else {
        launch(lambda ? f_encode_rd : f_encode, blocks, 1, C63_ENC_THREADS, 1, 0, args);
    }
    dcoef.down(coef_gpu.data(), coef_gpu.size() * 2);
    drec.down(rec_gpu.data(), total);

    std::string detail;
    static const char *const pn[] = { "Y", "U", "V" };
    for (size_t b = 0; b < nb && detail.empty(); b++)
        for (int k = 0; k < 64; k++)
            if (coef_gpu[64 * b + k] != coef_cpu[64 * b + k]) {
                const int p = b >= off[2] / 64 ? 2 : b >= off[1] / 64 ? 1 : 0;
                const int lb = (int)(b - off[p] / 64), bw = pw[p] / 8;
                char buf[256];
                snprintf(buf, sizeof(buf), "%dx%d, qp %d, %s: coefficients of %s block (%d, %d) "
                         "differ first at zigzag %d: gpu %d, cpu %d", w, h, qp,
                         key ? "intra" : "inter", pn[p], lb % bw, lb / bw, k,
                         coef_gpu[64 * b + k], coef_cpu[64 * b + k]);
                detail = buf;
                break;
            }
    for (int p = 0; p < 3 && detail.empty(); p++)
        for (int y = 0; y < ph[p] && detail.empty(); y++)
            for (int x = 0; x < pw[p]; x++) {
                const size_t i = off[p] + (size_t)y * pw[p] + x;
                if (rec_gpu[i] != rec_cpu[i]) {
                    char buf[256];
                    snprintf(buf, sizeof(buf), "%dx%d, qp %d, %s: reconstruction of %s block "
                             "(%d, %d) differs first at (%d, %d): gpu %d, cpu %d", w, h, qp,
                             key ? "intra" : "inter", pn[p], x / 8, y / 8, x & 7, y & 7,
                             rec_gpu[i], rec_cpu[i]);
                    detail = buf;
                    break;
                }
            }
    if (limit_ac && !lambda && !clamped && detail.empty())
        detail = "no level reached the limit: the case does not test it";
    if (lambda && !trellised && detail.empty())
        detail = "the trellis changed no level: the case does not test it";
    if (dc && !dc_moved && detail.empty())
        detail = "the DC chain changed no level: the case does not test it";
    static const char *const cn[] = { "random", "flat", "smooth", "extreme", "edges" };
    char name[128];
    snprintf(name, sizeof(name), "encode %dx%d qp%d %s %s%s%s", w, h, qp, key ? "intra" : "inter",
             cn[content], limit_ac ? " limit_ac" : "",
             lambda ? ((dc ? " trellis 2 lambda " : " trellis lambda ") +
                       std::to_string(lambda)).c_str() : "");
    report(name, detail.empty(), detail);
}

static void test_encode(void)
{
    static const int qps[] = { 25, 1, 4, 50, 10, 33 };
    for (int qp : qps)
        for (int key = 1; key >= 0; key--) {
            test_encode_case(176, 144, qp, key, RANDOM);
            test_encode_case(88, 72, qp, key, SMOOTH);
        }
    test_encode_case(8, 8, 25, 1, RANDOM);
    test_encode_case(16, 8, 25, 0, FLAT);
    test_encode_case(40, 24, 25, 0, FEW_LEVELS);   /* 15 blocks: partial thread block */
    test_encode_case(40, 24, 1, 0, FEW_LEVELS);
    /* rate control's AC limit: black and white edges against their
     * inverse at the finest tables have luma levels past it */
    test_encode_case(40, 24, 50, 0, EDGES, 1);
    test_encode_case(176, 144, 50, 0, EDGES, 1);
    test_encode_case(88, 72, 50, 0, EDGES, 1);
    test_encode_case(1920, 1088, 25, 0, SMOOTH);
    /* -trellis: small and large lambdas, intra and inter, every content */
    for (long long lambda : { 1LL, 300LL, 20000LL, 5000000LL })
        for (int key = 1; key >= 0; key--) {
            test_encode_case(176, 144, 25, key, RANDOM, 1, lambda);
            test_encode_case(88, 72, 50, key, SMOOTH, 1, lambda);
        }
    test_encode_case(40, 24, 50, 0, EDGES, 1, 300);
    test_encode_case(40, 24, 1, 0, FEW_LEVELS, 1, 300);
    test_encode_case(1920, 1088, 10, 0, RANDOM, 1, 20000);
    /* -trellis 2: the DC chain between the levels and the reconstruction */
    for (long long lambda : { 300LL, 20000LL, 5000000LL })
        for (int key = 1; key >= 0; key--) {
            test_encode_case(176, 144, 25, key, RANDOM, 1, lambda, 1);
            test_encode_case(96, 64, 50, key, SMOOTH, 1, lambda, 1);
        }
    test_encode_case(48, 32, 1, 0, FEW_LEVELS, 1, 50000000, 1);
    test_encode_case(1920, 1088, 10, 0, RANDOM, 1, 20000, 1);
}

/*
 * c63_mv_rd (-mv_rd, -intra_rd: modes) against c63_rd_choose_mv() block
 * by block, left to right: three planes as the encoder lays them out (w x
 * h luma, chroma of half the size), the current pictures the references
 * moved and lightly changed (or unrelated), the best-SAD vectors any in
 * the plane, lambda_me from none to dominant, DC steps of each plane from
 * 1 to 100.
 */
static void test_mvrd_case(int w, int h, int lambda_me, bool related, int modes = C63_RD_MV)
{
    if ((long)w * h > max_area)
        return;
    int pw[3], ph[3];
    size_t off[3];
    const size_t total = plane_layout(w, h, pw, ph, off);
    C63MVRDParams m = {};
    for (int p = 0; p < 3; p++) {
        m.p[p].w = pw[p];
        m.p[p].h = ph[p];
        m.p[p].first = (int)(off[p] / 64);
        m.p[p].first_row = m.nrows;
        m.p[p].qdc = 1 + (int)(rnd() % 100);
        m.nrows += ph[p] / 8;
    }
    const size_t nb = total / 64;
    std::vector<uint8_t> cur(total), ref(total);
    std::vector<C63ECMV> best(nb), cpu(nb), gpu(nb);
    long changed = 0, intra = 0;

    for (int p = 0; p < 3; p++) {
        const int W = pw[p], H = ph[p];
        std::vector<uint8_t> rf((size_t)W * H);
        fill(rf, W, H, SMOOTH, p);
        std::copy(rf.begin(), rf.end(), ref.begin() + off[p]);
        const int dx = (int)(rnd() % 5) - 2, dy = (int)(rnd() % 5) - 2;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const int sx = av_clip(x + dx, 0, W - 1), sy = av_clip(y + dy, 0, H - 1);
                int v = related ? rf[(size_t)sy * W + sx] : (int)(rnd() & 255);
                v = av_clip(v + (int)(rnd() % 7) - 3, 0, 255);
                cur[off[p] + (size_t)y * W + x] = v;
            }
        const int bw = W / 8, bh = H / 8;
        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++) {
                C63ECMV *v = &best[off[p] / 64 + by * bw + bx];
                const int x = rnd() % (W - 7), y = rnd() % (H - 7);
                v->x = (signed char)av_clip(x - 8 * bx, -64, 64);
                v->y = (signed char)av_clip(y - 8 * by, -64, 64);
                if (8 * bx + v->x < 0 || 8 * bx + v->x > W - 8)
                    v->x = 0;
                if (8 * by + v->y < 0 || 8 * by + v->y > H - 8)
                    v->y = 0;
                if (rnd() % 3 == 0) {   /* the motion itself */
                    v->x = (signed char)av_clip(dx, -8 * bx, W - 8 - 8 * bx);
                    v->y = (signed char)av_clip(dy, -8 * by, H - 8 - 8 * by);
                }
            }
        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++) {
                const size_t b = off[p] / 64 + by * bw + bx;
                cpu[b] = c63_rd_choose_mv(cur.data() + off[p] + (size_t)8 * by * W + 8 * bx,
                                          ref.data() + off[p], W, H, bx, by, best[b],
                                          bx ? &cpu[b - 1] : NULL, lambda_me, modes,
                                          m.p[p].qdc);
                changed += cpu[b].x != best[b].x || cpu[b].y != best[b].y;
                intra += cpu[b].x == C63_MV_INTRA;
            }
    }

    DevBuf dcur(total), dref(total), dmv(nb * sizeof(C63ECMV)), dpre(nb * sizeof(C63MVRDPre));
    dcur.up(cur.data(), total);
    dref.up(ref.data(), total);
    dmv.up(best.data(), nb * sizeof(C63ECMV));
    m.mv = dmv.p;
    m.pre = dpre.p;
    m.nblocks = (int)nb;
    m.orig = dcur.p;
    m.ref = dref.p;
    m.lambda_me = lambda_me;
    m.modes = modes;
    void *args[] = { &m };
    launch(f_mv_rd_pre, (m.nblocks + C63_MVRD_PRE_THREADS - 1) / C63_MVRD_PRE_THREADS, 1,
           C63_MVRD_PRE_THREADS, 1, 0, args);
    launch(f_mv_rd, (m.nrows + C63_MVRD_WARPS - 1) / C63_MVRD_WARPS, 1, 32 * C63_MVRD_WARPS, 1, 0,
           args);
    dmv.down(gpu.data(), nb * sizeof(C63ECMV));

    std::string detail;
    for (size_t b = 0; b < nb; b++)
        if (gpu[b].x != cpu[b].x || gpu[b].y != cpu[b].y) {
            char buf[160];
            snprintf(buf, sizeof(buf), "block %zu: gpu (%d, %d), cpu (%d, %d), best-SAD (%d, %d)",
                     b, gpu[b].x, gpu[b].y, cpu[b].x, cpu[b].y, best[b].x, best[b].y);
            detail = buf;
            break;
        }
    /* (an 8x8 frame's planes have one block each, whose only vector is (0, 0)) */
    if (lambda_me && !changed && nb > 3 && detail.empty())
        detail = "no vector changed: the case does not test the choice";
    char name[128];
    snprintf(name, sizeof(name), "mv_rd %dx%d lambda_me %d %s%s%s (%ld of %zu changed, %ld without)",
             w, h, lambda_me, related ? "moved" : "unrelated", modes & C63_RD_MV ? " mv" : "",
             modes & C63_RD_INTRA ? " intra" : "", changed, nb, intra);
    report(name, detail.empty(), detail);
}

static void test_mvrd(void)
{
    for (int modes : { C63_RD_MV, C63_RD_INTRA, C63_RD_MV | C63_RD_INTRA })
        for (int lambda_me : { 0, 16, 200, 3000, 100000 }) {
            test_mvrd_case(176, 144, lambda_me, true, modes);
            test_mvrd_case(88, 72, lambda_me, false, modes);
        }
    test_mvrd_case(8, 8, 200, true);        /* one block a plane row */
    test_mvrd_case(40, 24, 200, true);
    test_mvrd_case(1920, 1088, 200, true);
    test_mvrd_case(1920, 1088, 200, true, C63_RD_MV | C63_RD_INTRA);
}

/* ---------------------------------------------------------- scene cuts */

/*
 * c63_sc_hist and c63_sc_decide against c63_sc_hist() and the CPU
 * encoder's decision, frame by frame over a sequence (the padded luma
 * plane as c63_convert leaves it, with zeros right of and below the
 * picture): shots of unrelated content with motion and noise in between
 * cuts, a forced keyframe, -g and thresholds from 1 to 100. Each frame's
 * histogram and decision are compared.
 */
static void test_scene_case(int w, int h, int threshold, int gop)
{
    if ((long)w * h > max_area)
        return;
    const int pw = FFALIGN(w, 16), ph = FFALIGN(h, 16), nframes = 24;
    std::vector<uint8_t> plane((size_t)pw * ph);
    std::vector<uint8_t> shot((size_t)pw * ph);
    unsigned cpu_hist[2][C63_SC_BINS];
    int since_key = gop, keys = 0, cuts = 0;
    std::string detail, seq;
    DevBuf dl(plane.size());
    C63SceneState st;

    CK(cu->cuMemsetD8Async(d_scene, 0, sizeof(C63SceneState), NULL));
    for (int n = 0; n < nframes && detail.empty(); n++) {
        static const Content kinds[] = { SMOOTH, FLAT, FEW_LEVELS, SMOOTH };
        if (n % 7 == 0)             /* a new shot */
            fill(shot, pw, ph, kinds[(n / 7) % 4], n);
        std::fill(plane.begin(), plane.end(), 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const int sx = av_clip(x + n % 7, 0, w - 1);
                plane[(size_t)y * pw + x] = av_clip(shot[(size_t)y * pw + sx] + (int)(rnd() % 5) - 2,
                                                    0, 255);
            }
        const int force = n == 11;
        unsigned *hc = cpu_hist[n & 1];
        c63_sc_hist(hc, plane.data(), pw, w, h);
        const int cut = n && c63_sc_cut(c63_sc_change(hc, cpu_hist[!(n & 1)]), w, h, threshold);
        const int key = c63_sc_key(force, n > 0, since_key, gop, cut);
        since_key = key ? 1 : since_key + 1;
        keys += key;
        cuts += cut;

        C63SceneParams sp = {};
        sp.luma = dl.p;
        sp.stride = pw;
        sp.width = w;
        sp.height = h;
        sp.threshold = threshold;
        sp.gop = gop;
        sp.force = force;
        void *args[] = { &sp };
        dl.up(plane.data(), plane.size());
        const int rows = (h + 1) >> 1;
        launch(f_sc_hist, (rows + C63_SC_ROWS - 1) / C63_SC_ROWS, 1, C63_SC_THREADS, 1, 0, args);
        CK(cu->cuMemcpyDtoH(&st, d_scene, sizeof(st)));
        if (memcmp(st.hist[st.cur], hc, sizeof(cpu_hist[0])))
            detail = "frame " + std::to_string(n) + ": histograms differ";
        launch(f_sc_decide, 1, 1, C63_SC_BINS, 1, 0, args);
        CK(cu->cuMemcpyDtoH(&st, d_scene, sizeof(st)));
        if (detail.empty() && (st.key != key || st.since_key != since_key))
            detail = "frame " + std::to_string(n) + ": gpu key " + std::to_string(st.key) +
                     " since " + std::to_string(st.since_key) + ", cpu key " +
                     std::to_string(key) + " since " + std::to_string(since_key);
        seq += key ? 'K' : '.';
    }
    /* with threshold 1..99 the shots are cuts and nothing else is */
    if (detail.empty() && threshold > 20 && threshold < 95 && cuts != (nframes - 1) / 7 &&
        (long)w * h >= 64 * 64)
        detail = "cuts: " + std::to_string(cuts) + ", expected " + std::to_string((nframes - 1) / 7);
    char name[96];
    snprintf(name, sizeof(name), "scene %dx%d threshold %d gop %d %s", w, h, threshold, gop,
             seq.c_str());
    report(name, detail.empty(), detail);
}

/* c63_activity against c63_sc_activity(): pictures of each content at
 * sizes from 1x1 up, with a pitch wider than the picture. */
static void test_activity_case(int w, int h, Content c)
{
    if ((long)w * h > max_area)
        return;
    const int pitch = FFALIGN(w, 16) + 32;
    std::vector<uint8_t> plane((size_t)pitch * h);
    fill(plane, pitch, h, c, 1);
    const unsigned long long cpu = c63_sc_activity(plane.data(), pitch, w, h);
    DevBuf dl(plane.size()), ds(8);
    unsigned long long gpu = 0;
    C63ActivityParams ap = {};
    ap.luma = dl.p;
    ap.sum = ds.p;
    ap.pitch = pitch;
    ap.width = w;
    ap.height = h;
    void *args[] = { &ap };
    dl.up(plane.data(), plane.size());
    ds.up(&gpu, 8);
    launch(f_activity, ((h + 1) / 2 + C63_SC_ROWS - 1) / C63_SC_ROWS, 1, C63_SC_THREADS, 1, 0, args);
    ds.down(&gpu, 8);
    static const char *const cn[] = { "random", "flat", "smooth", "few levels", "edges" };
    char name[96];
    snprintf(name, sizeof(name), "activity %dx%d %s (%llu)", w, h, cn[c], cpu);
    report(name, gpu == cpu, "gpu " + std::to_string(gpu) + ", cpu " + std::to_string(cpu));
}

static void test_scene(void)
{
    for (Content c : { RANDOM, FLAT, SMOOTH, FEW_LEVELS, EDGES })
        test_activity_case(176, 144, c);
    test_activity_case(1, 1, RANDOM);
    test_activity_case(2, 3, RANDOM);
    test_activity_case(33, 17, RANDOM);
    test_activity_case(1920, 1080, RANDOM);
    test_activity_case(4096, 2160, EDGES);
    for (int t : { 1, 70, 100 })
        test_scene_case(176, 144, t, 100);
    test_scene_case(33, 17, 70, 100);
    test_scene_case(1, 1, 70, 5);
    test_scene_case(640, 480, 70, 5);
    test_scene_case(1920, 1080, 70, 100);
    test_scene_case(1920, 1080, 0, 10);
}

/* ------------------------------------------------------ entropy coding */

/*
 * The GPU entropy coder, kernel by kernel, against the serial coder
 * c63ec_code_frame_cpu() (tests/harness/c63ec_serial.h), and the serial coder's
 * packet against the CPU writer c63_write_frame(): synthetic frames
 * (random, all-zero, maximum magnitudes, ZRL chains, 0xFF-heavy, DC only),
 * keyframes and inter frames, 1x1 to 3840x2160. After each stage its output is compared
 * with the serial coder's: block lengths and bits, bit offsets and the
 * frame's bit count, the gathered words, the 0xFF prefix sums, the packet.
 */

/* Launch kernel k as the encoder does. */
static void ec_launch(int k, C63ECParams &p)
{
    const uint64_t wchunks = c63ec_max_words(p.nblocks) / C63EC_THREADS;
    int grid = k == EC_CODE ? c63ec_code_grid(p.nblocks) :
               k == EC_SUM || k == EC_APPLY ? p.nchunks :
               (int)std::min<uint64_t>(wchunks, C63EC_GRID);
    void *args[] = { &p };
    launch(f_ec[k], grid, 1, k == EC_CODE ? C63EC_CODE_THREADS : C63EC_THREADS, 1, 0, args);
}

/* n elements of T at device address a */
template <class T> static std::vector<T> down(uint64_t a, size_t n)
{
    std::vector<T> v(n ? n : 1);
    if (n)
        CK(cu->cuMemcpyDtoH(v.data(), a, n * sizeof(T)));
    return v;
}

template <class T> static std::string first_diff(const char *what, const T *a, const T *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            char buf[160];
            snprintf(buf, sizeof(buf), "%s: first difference at %zu of %zu: gpu %llu, serial %llu",
                     what, i, n, (unsigned long long)a[i], (unsigned long long)b[i]);
            return buf;
        }
    return "";
}

static AVCodecContext *open_c63(int w, int h)
{
    const AVCodec *codec = avcodec_find_encoder_by_name("c63");
    AVCodecContext *avctx = codec ? avcodec_alloc_context3(codec) : NULL;
    if (!avctx)
        return NULL;
    avctx->pix_fmt   = AV_PIX_FMT_YUV420P;
    avctx->width     = w;
    avctx->height    = h;
    avctx->time_base = { 1, 25 };
    if (avcodec_open2(avctx, codec, NULL) < 0)
        avcodec_free_context(&avctx);
    return avctx;
}

/* The work buffers and the packet of a frame on the device: p filled. */
struct ECDevice {
    DevBuf *buf;
    ECDevice(C63ECParams &p, const SynthFrame &sf, const uint8_t q[3][64], DevBuf &coef, DevBuf &mv)
    {
        uint8_t hdr[C63_HEADER_SIZE];
        memset(&p, 0, sizeof(p));
        uint64_t work = c63ec_init_params(&p, sf.g.mb_w, sf.g.mb_h, 0);
        buf = new DevBuf(work + c63ec_max_packet(p.nblocks));
        CK(cu->cuMemsetD8Async(buf->p, 0xA5, buf->size, NULL));
        c63ec_init_params(&p, sf.g.mb_w, sf.g.mb_h, buf->p);
        ff_c63_write_header(hdr, sf.g.width, sf.g.height, 0, q);
        CK(cu->cuMemcpyHtoD(p.tables, &ff_c63_huff, sizeof(C63ECTables)));
        CK(cu->cuMemcpyHtoD(p.hdr, hdr, sizeof(hdr)));
        coef.up(sf.coef.data(), sf.coef.size() * 2);
        mv.up(sf.mv.data(), sf.mv.size() * 2);
        p.coef     = coef.p;
        p.mv       = mv.p;
        p.pkt      = buf->p + work;
        p.keyframe = sf.f.keyframe;
    }
    ~ECDevice() { delete buf; }
};

static void test_entropy_case(int w, int h, CoefKind kind, int frame, int qp)
{
    if ((long)w * h > max_area)
        return;
    auto r = [] { return rnd(); };
    SynthFrame sf;
    synth_frame(sf, w, h, kind, frame, r);
    const C63Geometry &g = sf.g;
    uint8_t q[3][64];
    C63ECParams hp, dp;
    std::string detail;
    char name[128];

    ff_c63_quant_tables(q, C63_TABLES_ANNEXK, qp);
    ff_c63_init_huff_codes();   /* before the tables are copied, not by the encoder's open */

    /* the serial coder, in host memory */
    memset(&hp, 0, sizeof(hp));
    uint64_t work = c63ec_init_params(&hp, g.mb_w, g.mb_h, 0);
    std::vector<uint64_t> host((work + c63ec_max_packet(hp.nblocks)) / 8 + 1, 0);
    c63ec_init_params(&hp, g.mb_w, g.mb_h, (uintptr_t)host.data());
    memcpy((void *)(uintptr_t)hp.tables, &ff_c63_huff, sizeof(C63ECTables));
    ff_c63_write_header((uint8_t *)(uintptr_t)hp.hdr, w, h, 0, q);
    hp.coef     = (uintptr_t)sf.coef.data();
    hp.mv       = (uintptr_t)sf.mv.data();
    hp.pkt      = (uintptr_t)host.data() + work;
    hp.keyframe = sf.f.keyframe;
    c63ec_code_frame_cpu(&hp);
    const C63ECInfo hinfo = *(const C63ECInfo *)(uintptr_t)hp.info;
    const uint8_t *hpkt = (const uint8_t *)(uintptr_t)hp.pkt;

    /* the serial coder against the CPU writer */
    AVCodecContext *avctx = open_c63(w, h);
    AVPacket *pkt = av_packet_alloc();
    C63Writer cw = {};
    if (!avctx || !pkt || c63_write_frame(avctx, &cw, pkt, &g, q, &sf.f) < 0)
        detail = "the CPU writer failed";
    else if ((uint64_t)pkt->size != hinfo.size || memcmp(pkt->data, hpkt, pkt->size))
        detail = "the serial coder's packet is not the CPU writer's (sizes " +
                 std::to_string(hinfo.size) + ", " + std::to_string(pkt->size) + ")";
    ff_c63_writer_free(&cw);
    av_packet_free(&pkt);
    avcodec_free_context(&avctx);

    /* the kernels, stage by stage */
    DevBuf dcoef(sf.coef.size() * 2), dmv(sf.mv.size() * 2);
    ECDevice dev(dp, sf, q, dcoef, dmv);
    const int n = hp.nblocks;
    const uint32_t *hlen = (const uint32_t *)(uintptr_t)hp.len;
    ec_launch(EC_CODE, dp);
    if (detail.empty()) {
        std::vector<uint32_t> len = down<uint32_t>(dp.len, n);
        detail = first_diff("c63_ec_code lengths", len.data(), hlen, n);
    }
    if (detail.empty()) {
        std::vector<uint32_t> slots = down<uint32_t>(dp.slots, (size_t)n * C63EC_SLOT_WORDS);
        const uint32_t *hs = (const uint32_t *)(uintptr_t)hp.slots;
        for (int i = 0; i < n && detail.empty(); i++) {
            size_t o = (size_t)i * C63EC_SLOT_WORDS;
            std::string d = first_diff("c63_ec_code bits", &slots[o], &hs[o], (hlen[i] + 31) / 32);
            if (!d.empty())
                detail = d + " (coded block " + std::to_string(i) + ")";
        }
    }
    ec_launch(EC_SUM, dp);
    if (detail.empty())
        detail = first_diff("c63_ec_sum chunk sums", down<uint64_t>(dp.sums, hp.nchunks).data(),
                            (const uint64_t *)(uintptr_t)hp.sums, hp.nchunks);
    ec_launch(EC_APPLY, dp);
    if (detail.empty())
        detail = first_diff("c63_ec_apply offsets", down<uint64_t>(dp.off, n).data(),
                            (const uint64_t *)(uintptr_t)hp.off, n);
    if (detail.empty())
        detail = first_diff("c63_ec_apply frame bits", &down<C63ECInfo>(dp.info, 1)[0].bits,
                            &hinfo.bits, 1);
    const uint64_t nwords = (hinfo.bits + 31) / 32;
    const uint64_t wchunks = (nwords + C63EC_THREADS - 1) / C63EC_THREADS;
    ec_launch(EC_GATHER, dp);
    if (detail.empty()) {
        std::vector<uint32_t> words = down<uint32_t>(dp.words, nwords);
        detail = first_diff("c63_ec_gather words", words.data(),
                            (const uint32_t *)(uintptr_t)hp.words, nwords);
    }
    if (detail.empty())
        detail = first_diff("c63_ec_gather 0xFF bytes per chunk",
                            down<uint64_t>(dp.ffsum, wchunks).data(),
                            (const uint64_t *)(uintptr_t)hp.ffsum, wchunks);
    ec_launch(EC_STUFF, dp);
    if (detail.empty())
        detail = first_diff("c63_ec_stuff 0xFF bytes", &down<C63ECInfo>(dp.info, 1)[0].nff,
                            &hinfo.nff, 1);
    if (detail.empty()) {
        std::vector<C63ECInfo> info = down<C63ECInfo>(dp.info, 1);
        if (info[0].size != hinfo.size) {
            detail = "c63_ec_stuff: packet size " + std::to_string(info[0].size) + ", serial coder " +
                     std::to_string(hinfo.size);
        } else {
            std::vector<uint8_t> out = down<uint8_t>(dp.pkt, hinfo.size);
            detail = first_diff("c63_ec_stuff packet", out.data(), hpkt, hinfo.size);
        }
    }

    snprintf(name, sizeof(name), "entropy %dx%d %s %s q%d", w, h, coef_kind_names[kind],
             frame ? "inter" : "key", qp);
    report(name, detail.empty(), detail);
}

/*
 * The GPU decoding's unstuffing (c63_hd_chunks, c63_hd_unstuff) against
 * the plain definition: size stuffed bytes (random, no 0xFF but the
 * stuffed 0xFF 0x00 pairs every `every` bytes) with the EOI marker at m
 * (none if m < 0), a zero byte after them as the hwaccel uploads them. The
 * marker found must be the first 0xFF not followed by 0 (or the end), and
 * where it is an EOI the data before it, less the stuffed zeros, and
 * their size. The markers lie at and around the chunks' and the threads'
 * boundaries (C63HD_CHUNK, C63HD_CHUNK / C63HD_CHUNK_THREADS).
 */
static bool unstuff_case(int size, int m, int every, std::string &detail)
{
    const int nchunks = (size + C63HD_CHUNK - 1) / C63HD_CHUNK;
    std::vector<uint8_t> pkt(size + 1, 0), ref;
    unsigned ref_marker = C63HD_NOMARKER;
    C63HDStatus st = { C63HD_NOMARKER, 0, C63HD_NO_ERROR, 0 };
    char buf[160];

    for (int i = 0; i < size; i++)
        pkt[i] = rnd() % 255;
    for (int i = every; every && i + 1 < size; i += every)
        if (m < 0 || i + 1 < m - 1 || i > m + 1) {
            pkt[i]     = 0xFF;
            pkt[i + 1] = 0;
        }
    if (m >= 0) {
        if (m > 0 && pkt[m - 1] == 0xFF)
            pkt[m - 1] = 1;
        pkt[m]     = 0xFF;
        pkt[m + 1] = 0xD9;
    }
    for (int i = 0; i < size && ref_marker == C63HD_NOMARKER; i++)
        if (c63hd_marker(pkt.data(), i))
            ref_marker = i;
    for (unsigned i = 0; ref_marker != C63HD_NOMARKER && i < ref_marker; i++)
        if (!c63hd_stuffed(pkt.data(), i))
            ref.push_back(pkt[i]);

    DevBuf d_pkt(size + 1), d_data(size + C63HD_PAD), d_chunks(4 * (size_t)nchunks),
           d_status(sizeof(st));
    std::vector<uint8_t> data(size + 1);
    C63HDParams p = {};
    void *args[] = { &p };
    d_pkt.up(pkt.data(), size + 1);
    d_status.up(&st, sizeof(st));
    CK(cu->cuMemsetD8Async(d_data.p, 0, size + C63HD_PAD, 0));
    p.pkt      = d_pkt.p;
    p.data     = d_data.p;
    p.chunks   = d_chunks.p;
    p.status   = d_status.p;
    p.pkt_size = size;
    p.nchunks  = nchunks;
    launch(f_hd_chunks, nchunks, 1, C63HD_CHUNK_THREADS, 1, 0, args);
    launch(f_hd_unstuff, nchunks, 1, C63HD_CHUNK_THREADS, 1, 0, args);
    CK(cu->cuStreamSynchronize(0));
    d_status.down(&st, sizeof(st));
    if (st.marker != ref_marker) {
        snprintf(buf, sizeof(buf), "%d bytes, EOI at %d: marker %u, expected %u", size, m,
                 st.marker, ref_marker);
        detail = buf;
        return false;
    }
    if (ref_marker == C63HD_NOMARKER || pkt[ref_marker + 1] != 0xD9)
        return true;
    d_data.down(data.data(), ref.size() + 1);
    if (st.size != ref.size() || memcmp(data.data(), ref.data(), ref.size())) {
        snprintf(buf, sizeof(buf), "%d bytes, EOI at %d, stuffing every %d: size %u, "
                 "expected %zu%s", size, m, every, st.size, ref.size(),
                 st.size == ref.size() ? ", other bytes" : "");
        detail = buf;
        return false;
    }
    return true;
}

static void test_unstuff(void)
{
    static const int sizes[] = { 2, 17, 4095, 4096, 4097, 4098, 8194, 20000, 70000 };
    const int per = C63HD_CHUNK / C63HD_CHUNK_THREADS;
    for (int size : sizes) {
        const int marks[] = { -1, 0, per - 1, per, C63HD_CHUNK - 2, C63HD_CHUNK - 1, C63HD_CHUNK,
                              C63HD_CHUNK + 1, 2 * C63HD_CHUNK, size / 2, size - 2 };
        std::string detail;
        char name[64];
        bool ok = true;
        int n = 0;
        for (int m : marks)
            for (int every : { 0, 7, 300 }) {
                if (m + 1 >= size)
                    continue;
                if (ok)
                    ok = unstuff_case(size, m, every, detail);
                n++;
            }
        snprintf(name, sizeof(name), "c63_hd_unstuff %d bytes (%d cases)", size, n);
        report(name, ok, detail);
    }
}

static void test_entropy(void)
{
    struct Case { int w, h; CoefKind kind; };
    static const Case cases[] = {
        { 1, 1, SPARSE }, { 1, 1, MAX_MAG }, { 16, 16, ZERO }, { 17, 9, DENSE },
        { 65, 33, MIXED }, { 176, 100, SPARSE }, { 96, 64, ZRL_CHAIN }, { 33, 47, DC_ONLY },
        { 352, 288, ONES }, { 352, 288, DENSE }, { 720, 577, MIXED }, { 1920, 1080, ZERO },
        { 1920, 1080, SPARSE }, { 1920, 1080, MAX_MAG }, { 3840, 2160, MIXED },
    };
    static const int qps[] = { 1, 25, 50 };
    int n = 0;
    printf("c63_ec_* kernels against the serial coder (and it against the CPU writer):\n");
    for (const Case &c : cases)
        for (int frame = 0; frame < SYNTH_FRAMES; frame++)
            test_entropy_case(c.w, c.h, c.kind, frame, qps[n++ % 3]);
}

/* Each kernel's time on a 1080p frame of sparse coefficients (inter, most
 * vectors reused), over reps runs of the whole sequence. */
void checkcuda_c63_bench_entropy(void)
{
    const int w = 1920, h = 1080, reps = 20;
    auto r = [] { return rnd(); };
    SynthFrame sf;
    uint8_t q[3][64];
    C63ECParams dp;
    CUevent ev[NB_EC + 1];
    double ms[NB_EC] = { 0 }, total = 0;

    synth_frame(sf, w, h, SPARSE, 2, r);
    ff_c63_quant_tables(q, C63_TABLES_ANNEXK, 25);
    DevBuf dcoef(sf.coef.size() * 2), dmv(sf.mv.size() * 2);
    ECDevice dev(dp, sf, q, dcoef, dmv);
    for (int i = 0; i <= NB_EC; i++)
        CK(cu->cuEventCreate(&ev[i], 0));

    for (int k = 0; k < NB_EC; k++)     /* warm-up */
        ec_launch(k, dp);
    for (int rep = 0; rep < reps; rep++) {
        CK(cu->cuEventRecord(ev[0], NULL));
        for (int k = 0; k < NB_EC; k++) {
            ec_launch(k, dp);
            CK(cu->cuEventRecord(ev[k + 1], NULL));
        }
        CK(cu->cuEventSynchronize(ev[NB_EC]));
        for (int k = 0; k < NB_EC; k++)
            ms[k] += time_ms(ev[k], ev[k + 1]);
    }
    std::vector<C63ECInfo> info = down<C63ECInfo>(dp.info, 1);
    printf("bench c63_ec_* (1920x1080, %d coded blocks, inter, sparse: %.0f kB a frame):\n",
           dp.nblocks, info[0].size / 1e3);
    for (int k = 0; k < NB_EC; k++) {
        double t = ms[k] / reps;
        total += t;
        if (k == EC_CODE)
            printf("  %-14s %8.4f ms  %8.1f Mblocks/s\n", ec_names[k], t, dp.nblocks / t * 1e-3);
        else if (k == EC_GATHER || k == EC_STUFF)
            printf("  %-14s %8.4f ms  %8.1f GB/s of packet\n", ec_names[k], t,
                   info[0].size / t * 1e-6);
        else
            printf("  %-14s %8.4f ms\n", ec_names[k], t);
    }
    printf("  %-14s %8.4f ms  %8.1f frames/s\n", "all", total, 1000.0 / total);
    for (int i = 0; i <= NB_EC; i++)
        cu->cuEventDestroy(ev[i]);
}
/* ------------------------------------------------------------- bench */

/* c63_me<nr> over `planes` w x h planes of one launch, planes w * h bytes
 * apart: milliseconds a launch, the mean of reps after one warm-up */
static float time_me(CUevent e0, CUevent e1, CUdeviceptr mv, CUdeviceptr c, CUdeviceptr rf,
                     int w, int h, int r, int planes, int nr, int reps)
{
    int ws, wr, threads, zstride = w * h, sc = 0;
    me_params(r, nr, &ws, &wr, &threads);
    void *args[] = { &mv, &c, &rf, &w, &h, &r, &ws, &zstride, &sc };
    launch3(me_kernel(nr), w / 8, h / 8, planes, threads, 1, ws * wr, args);
    CK(cu->cuEventRecord(e0, NULL));
    for (int i = 0; i < reps; i++)
        launch3(me_kernel(nr), w / 8, h / 8, planes, threads, 1, ws * wr, args);
    CK(cu->cuEventRecord(e1, NULL));
    CK(cu->cuEventSynchronize(e1));
    return time_ms(e0, e1) / reps;
}

/* candidate positions of a w x h plane's search at range r */
static double me_candidates(int w, int h, int r)
{
    double n = 0;
    for (int my = 0; my + 8 <= h; my += 8)
        for (int mx = 0; mx + 8 <= w; mx += 8) {
            int nx = std::min(mx + r, w - 8) - std::max(0, mx - r);
            int ny = std::min(my + r, h - 8) - std::max(0, my - r);
            if (nx > 0 && ny > 0)
                n += (double)nx * ny;
        }
    return n;
}

double checkcuda_c63_bench(CUevent e0, CUevent e1)
{
    const int w = 1920, h = 1088, r = 16, reps = 20;
    const int bw = w / 8, bh = h / 8, nb = bw * bh;
    std::vector<uint8_t> cur((size_t)w * h), ref((size_t)w * h);
    double candidates = 0;

    fill(ref, w, h, SMOOTH, 0);
    fill(cur, w, h, SMOOTH, 2);
    candidates = me_candidates(w, h, r);

    DevBuf dc(cur.size()), dr(ref.size()), dm(nb * 2), dcoef((size_t)nb * 128), drec(cur.size()),
           dq(3 * 64);
    dc.up(cur.data(), cur.size());
    dr.up(ref.data(), ref.size());
    uint8_t q[3][64];
    ff_c63_quant_tables(q, C63_TABLES_ANNEXK, 25);
    dq.up(q, sizeof(q));
    std::vector<C63MV> zero(nb);
    dm.up(zero.data(), nb * 2);

    /* motion search, 1080p luma, the encoder's kernel (its vectors feed
     * c63_encode below) */
    float me_ms = time_me(e0, e1, dm.p, dc.p, dr.p, w, h, r, 1, C63_ME_NR(r), reps);
    double me_rate = candidates * 64 / (me_ms * 1e-3);

    /* peak byte absolute difference rate */
    double peak_rate = measure_peak_rate(e0, e1);

    /* transform and reconstruction, 1080p luma, inter */
    float enc_ms;
    {
        /* the luma plane alone: the chroma planes have no blocks */
        C63EncParams ep;
        const int pw[3] = { w, 8, 8 }, ph[3] = { h, 0, 0 };
        const int blocks = enc_params(&ep, dcoef.p, drec.p, dm.p, dc.p, dr.p, dq.p, 0, pw, ph);
        void *args[] = { &ep };
        launch(f_encode, blocks, 1, C63_ENC_THREADS, 1, 0, args);
        CK(cu->cuEventRecord(e0, NULL));
        for (int i = 0; i < reps; i++)
            launch(f_encode, blocks, 1, C63_ENC_THREADS, 1, 0, args);
        CK(cu->cuEventRecord(e1, NULL));
        CK(cu->cuEventSynchronize(e1));
        enc_ms = time_ms(e0, e1) / reps;
    }

    /* conversion, a 1080p yuv420p frame (three planes, one launch) */
    float conv_ms;
    {
        C63ConvParams cp;
        DevBuf dsrc((size_t)w * h * 3 / 2), ddst((size_t)w * h * 3 / 2);
        size_t off = 0;
        for (int p = 0; p < 3; p++) {
            C63ConvPlane *c = &cp.p[p];
            c->dw    = p ? w / 2 : w;
            c->dh    = p ? h / 2 : h;
            c->sw    = p ? 960 : 1920;
            c->sh    = p ? 540 : 1080;
            c->pitch = c->sw;
            c->step  = 1;
            c->dst   = ddst.p + off;
            c->src   = dsrc.p + off;
            off     += (size_t)c->dw * c->dh;
        }
        const int blocks = c63_conv_layout(&cp);
        void *args[] = { &cp };
        CK(cu->cuEventRecord(e0, NULL));
        for (int i = 0; i < reps; i++)
            launch(f_convert, blocks, 1, C63_CONV_THREADS, 1, 0, args);
        CK(cu->cuEventRecord(e1, NULL));
        CK(cu->cuEventSynchronize(e1));
        conv_ms = time_ms(e0, e1) / reps;
    }

    printf("bench (1920x1088 luma plane, CUDA events):\n");
    printf("  c63_convert  %8.3f ms  %8.1f Msamples/s (the three planes of a 1920x1080 frame)\n",
           conv_ms, 1920.0 * 1080 * 1.5 / conv_ms * 1e-3);
    printf("  c63_me       %8.3f ms  %8.1f Mblocks/s  %.0f candidates  %.1f G byte-absdiff/s\n",
           me_ms, nb / me_ms * 1e-3, candidates, me_rate * 1e-9);
    printf("  c63_encode   %8.3f ms  %8.1f Mblocks/s (inter)\n", enc_ms, nb / enc_ms * 1e-3);
    printf("  peak __vsadu4 loop: %.1f G byte-absdiff/s; motion search reaches %.1f%% of it\n",
           peak_rate * 1e-9, 100.0 * me_rate / peak_rate);
    {
        /* scene cuts: the histogram of a 1080p picture and the decision */
        C63SceneParams sp = {};
        void *args[] = { &sp };
        const int rows = (1080 + 1) >> 1;
        float ms;
        sp.luma = dc.p;
        sp.stride = w;
        sp.width = 1920;
        sp.height = 1080;
        sp.threshold = 70;
        sp.gop = 100;
        CK(cu->cuEventRecord(e0, NULL));
        for (int i = 0; i < reps; i++) {
            launch(f_sc_hist, (rows + C63_SC_ROWS - 1) / C63_SC_ROWS, 1, C63_SC_THREADS, 1, 0, args);
            launch(f_sc_decide, 1, 1, C63_SC_BINS, 1, 0, args);
        }
        CK(cu->cuEventRecord(e1, NULL));
        CK(cu->cuEventSynchronize(e1));
        ms = time_ms(e0, e1) / reps;
        printf("  c63_sc_hist + c63_sc_decide %8.3f ms (a 1920x1080 frame)\n", ms);
    }

    /* every c63_me kernel: 1080p luma at range 16, and its two chroma
     * planes (960x544) at range 8 in one launch, as the encoder runs them */
    {
        const int cw = w / 2, chh = h / 2, cr = r / 2;
        const size_t cn = (size_t)cw * chh;
        std::vector<uint8_t> ccur(2 * cn), cref(2 * cn), tmp(cn);
        for (int z = 0; z < 2; z++) {
            fill(tmp, cw, chh, SMOOTH, 3 * z);
            memcpy(cref.data() + z * cn, tmp.data(), cn);
            fill(tmp, cw, chh, SMOOTH, 3 * z + 2);
            memcpy(ccur.data() + z * cn, tmp.data(), cn);
        }
        DevBuf ddc(2 * cn), ddr(2 * cn), ddm(2 * (cn / 64) * 2), dlm(nb * 2);
        ddc.up(ccur.data(), 2 * cn);
        ddr.up(cref.data(), 2 * cn);
        const double ccand = 2 * me_candidates(cw, chh, cr);
        printf("  c63_meN, N candidate rows a work item (luma: %dx%d range %d; chroma: "
               "2 planes %dx%d range %d, one launch; * the encoder's):\n",
               w, h, r, cw, chh, cr);
        for (int nr : me_nrs) {
            float lm = time_me(e0, e1, dlm.p, dc.p, dr.p, w, h, r, 1, nr, reps);
            float cm = time_me(e0, e1, ddm.p, ddc.p, ddr.p, cw, chh, cr, 2, nr, reps);
            printf("    N %2d: luma %7.3f ms %5.1f%% of peak%s  chroma %7.3f ms %5.1f%% of peak%s\n",
                   nr, lm, 100.0 * candidates * 64 / (lm * 1e-3) / peak_rate,
                   nr == C63_ME_NR(r) ? "*" : " ",
                   cm, 100.0 * ccand * 64 / (cm * 1e-3) / peak_rate,
                   nr == C63_ME_NR(cr) ? "*" : " ");
        }
    }
    return peak_rate;
}

int checkcuda_c63_init(const char *ptx_path)
{
    std::string ptx = load_ptx(ptx_path, ff_c63_cuda_enc_ptx_data, ff_c63_cuda_enc_ptx_len);
    std::string ptx_rd = inflate_ptx(ff_c63_cuda_rd_ptx_data, ff_c63_cuda_rd_ptx_len);
    CK(cu->cuModuleLoadData(&module, ptx.c_str()));
    CK(cu->cuModuleLoadData(&module_rd, ptx_rd.c_str()));
    CK(cu->cuModuleGetFunction(&f_convert, module, "c63_convert"));
    for (int i = 0; i < (int)FF_ARRAY_ELEMS(me_nrs); i++) {
        char name[16];
        snprintf(name, sizeof(name), "c63_me%d", me_nrs[i]);
        CK(cu->cuModuleGetFunction(&f_me[i], module, name));
    }
    CK(cu->cuModuleGetFunction(&f_encode,  module, "c63_encode"));
    CK(cu->cuModuleGetFunction(&f_encode_rd, module_rd, "c63_encode_rd"));
    CK(cu->cuModuleGetFunction(&f_encode_rdq, module_rd, "c63_encode_rdq"));
    CK(cu->cuModuleGetFunction(&f_dc_chain, module_rd, "c63_dc_chain"));
    CK(cu->cuModuleGetFunction(&f_recon, module_rd, "c63_recon"));
    CK(cu->cuModuleGetFunction(&f_mv_rd_pre, module_rd, "c63_mv_rd_pre"));
    CK(cu->cuModuleGetFunction(&f_mv_rd,   module_rd, "c63_mv_rd"));
    CK(cu->cuModuleGetFunction(&f_sc_hist, module, "c63_sc_hist"));
    CK(cu->cuModuleGetFunction(&f_sc_decide, module, "c63_sc_decide"));
    CK(cu->cuModuleGetFunction(&f_activity, module_rd, "c63_activity"));
    {
        /* the loader's cuModuleGetGlobal is the 32-bit-address v1 entry point */
        typedef CUresult CUDAAPI GetGlobal(CUdeviceptr *, size_t *, CUmodule, const char *);
        GetGlobal *get_global = (GetGlobal *)FFNV_SYM_FUNC(cu->lib, "cuModuleGetGlobal_v2");
        size_t bytes = 0;
        if (!get_global) {
            fprintf(stderr, "checkcuda: no cuModuleGetGlobal_v2 in the driver\n");
            return -1;
        }
        CK(get_global(&d_scene, &bytes, module, "c63_scene"));
        if (bytes != sizeof(C63SceneState)) {
            fprintf(stderr, "checkcuda: c63_scene is %zu bytes, C63SceneState %zu\n", bytes,
                    sizeof(C63SceneState));
            return -1;
        }
    }
    for (int k = 0; k < NB_EC; k++)
        CK(cu->cuModuleGetFunction(&f_ec[k], module, ec_names[k]));
    {
        std::string ptx_dec = inflate_ptx(ff_c63_cuda_dec_ptx_data, ff_c63_cuda_dec_ptx_len);
        CK(cu->cuModuleLoadData(&module_dec, ptx_dec.c_str()));
        CK(cu->cuModuleGetFunction(&f_hd_chunks, module_dec, "c63_hd_chunks"));
        CK(cu->cuModuleGetFunction(&f_hd_unstuff, module_dec, "c63_hd_unstuff"));
    }

    AVCodecContext *avctx = avcodec_alloc_context3(NULL);
    ff_me_cmp_init(&mecc, avctx);
    avcodec_free_context(&avctx);
    return 0;
}

void checkcuda_c63_test(void)
{
    test_convert();
    test_me();
    test_encode();
    test_mvrd();
    test_scene();
    test_entropy();
    test_unstuff();
}

void checkcuda_c63_uninit(void)
{
    cu->cuModuleUnload(module_dec);
    cu->cuModuleUnload(module_rd);
    cu->cuModuleUnload(module);
}
