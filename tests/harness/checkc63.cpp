// checkc63: the C versions of the Codec63 CPU routines against their
// references (the transcriptions of the reference programs in
// tests/harness/c63ref.h, and plain searches) on random and extreme input, the
// encoders' checks of what they are opened with, and the GPU entropy
// coder's stages run serially against the CPU writer.
//
//   checkc63 [--seed N]
//
// The SIMD versions are checked against the C ones by FFmpeg's checkasm
// (tests/checkasm/c63dsp.c: checkasm --test=c63dsp, which --bench times).
// Prints one line per check and closes with "N passed, N failed".

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/cpu.h"
#include "libavutil/pixdesc.h"
#include "libavcodec/me_cmp.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63dsp.h"
#include "libavcodec/c63/c63me.h"
#include "libavcodec/c63/c63enc.h"
#include "libavcodec/c63/c63scene.h"
extern const uint8_t ff_zigzag_direct[64];   // libavcodec/mathops.h
}
#include "tests/c63/harness/c63_ec_frames.h"
#include "tests/c63/harness/c63ref.h"
#include "tests/c63/harness/c63ec_serial.h"

static int passed, failed;
static std::mt19937 rng(1);

static void report(const char *name, bool ok, const std::string &detail = "")
{
    std::printf("%-28s %s%s%s\n", name, ok ? "ok" : "FAILED", detail.empty() ? "" : ": ",
                detail.c_str());
    (ok ? passed : failed)++;
}

// The C versions of the routines (every cpu flag off).
static C63DSPContext c_dsp;

static void init_c_dsp()
{
    av_force_cpu_flags(0);
    ff_c63dsp_init(&c_dsp);
    av_force_cpu_flags(-1);
}

// a (the reference's block) against b (a version's); the first difference
// goes into detail
static bool same_block(const int16_t *a, const int16_t *b, int qp, const char *what,
                       std::string &detail)
{
    for (int i = 0; i < 64; i++)
        if (a[i] != b[i]) {
            detail = "qp " + std::to_string(qp) + " " + what + " " +
                     std::to_string(i) + ": " + std::to_string(a[i]) + " vs " + std::to_string(b[i]);
            return false;
        }
    return true;
}

static void check_fdct_quant()
{
    static const int qps[] = { 1, 5, 25, 50 };
    for (int qp : qps) {
        uint8_t q[3][64];
        ff_c63_quant_tables(q, C63_TABLES_ANNEXK, qp);
        bool ok = true;
        std::string detail;
        for (int iter = 0; iter < 20000 && ok; iter++) {
            int16_t res[64], a[64], b[64];
            int range = iter % 4 == 0 ? 255 : iter % 4 == 1 ? 32 : iter % 4 == 2 ? 4 : 1;
            std::uniform_int_distribution<int> d(iter & 1 ? -range : 0, range);
            for (auto &v : res)
                v = d(rng);
            // extremes: every sample at one end of the range, a checkerboard
            // of both ends, a single impulse, nothing
            if (iter < 64) {
                for (int i = 0; i < 64; i++)
                    res[i] = iter < 8  ? (iter & 1 ? -255 : 255) * (iter & 2 ? ((i ^ i >> 3) & 1 ? 1 : -1) : 1)
                           : iter < 16 ? (i == iter - 8 ? 255 : 0)
                           : iter < 17 ? 0 : res[i];
            }
            c63_fdct_quant_ref(a, res, q[iter % 3]);
            c_dsp.fdct_quant(b, res, q[iter % 3]);
            ok = same_block(a, b, qp, "coefficient", detail);
            int za[64], zb[64];
            c63_fdct_z4_ref(za, res);
            ff_c63_fdct_z4(zb, res);
            if (ok && std::memcmp(za, zb, sizeof(za))) {
                ok = false;
                detail = "ff_c63_fdct_z4 differs from the reference's transform";
            }
        }
        std::string name = "fdct_quant, fdct_z4 qp " + std::to_string(qp);
        report(name.c_str(), ok, detail);
    }
}

// the smallest n such that the coefficients (zigzag order) outside the
// top-left n x n are zero (at least 1)
static int idct_bound(const int16_t coef[64])
{
    int n = 1;
    for (int k = 0; k < 64; k++)
        if (coef[k])
            n = std::max(n, 1 + std::max(ff_zigzag_direct[k] >> 3, ff_zigzag_direct[k] & 7));
    return n;
}

// dequant_idct_add against the reference transform added to a prediction
// (random, at the limits, or none) and clipped, in a larger picture whose
// other samples must stay as they are. It is given the exact bound of the
// coefficients, every larger one, and 8 (unknown); its result must not
// depend on which.
static void check_dequant_idct_add()
{
    static const int qps[] = { 1, 5, 25, 50 };
    const int stride = 40;
    std::vector<uint8_t> pred(10 * stride), da(10 * stride), db(10 * stride);
    std::uniform_int_distribution<int> pix(0, 255);
    for (int qp : qps) {
        uint8_t q[3][64];
        ff_c63_quant_tables(q, C63_TABLES_ANNEXK, qp);
        bool ok = true;
        std::string detail;
        for (int iter = 0; iter < 20000 && ok; iter++) {
            int16_t coef[64] = { 0 }, a[64];
            // realistic coefficients: from transforming a random residual,
            // plus sparse random blocks (DC only, empty, a few AC)
            if (iter % 4 == 3) {
                // dense within a square of every size
                std::uniform_int_distribution<int> d(-300, 300);
                const int m = 1 + iter / 4 % 8;
                for (int k = 0; k < 64; k++)
                    if ((ff_zigzag_direct[k] >> 3) < m && (ff_zigzag_direct[k] & 7) < m)
                        coef[k] = iter % 8 == 7 ? d(rng) : d(rng) / 16;
            } else if (iter % 4 == 0) {
                int16_t res[64];
                std::uniform_int_distribution<int> d(-255, 255);
                for (auto &v : res)
                    v = d(rng);
                c63_fdct_quant_ref(coef, res, q[iter % 3]);
            } else {
                std::uniform_int_distribution<int> d(-300, 300), k(0, 63);
                int n = iter % 4 == 1 ? 0 : 1 + iter % 5;
                coef[0] = d(rng);
                for (int i = 0; i < n; i++)
                    coef[k(rng)] = d(rng) / 8;
                if (iter % 7 == 0)
                    coef[0] = 0;
            }
            // extremes (hostile streams): one coefficient at each position at
            // the int16 limits, the DC alone at the limits, every coefficient
            // at a limit (outputs clamped to int16)
            if (iter < 64 * 2)
                coef[iter % 64] = iter & 64 ? -32768 : 32767;
            else if (iter < 64 * 2 + 4) {
                for (int i = 0; i < 64; i++)
                    coef[i] = iter & 1 ? -32768 : 32767;
                if (iter & 2)
                    std::memset(coef + 1, 0, 63 * sizeof(*coef));
            }
            const int mode = iter / 3 % 5;
            for (auto &x : pred)
                x = mode == 1 ? 0 : mode == 2 ? 255 : pix(rng);
            const uint8_t *p = mode == 4 ? nullptr : pred.data() + stride + iter % 7;
            const int off = stride + iter % 5;
            std::fill(da.begin(), da.end(), 7);
            c63_dequant_idct_ref(a, coef, q[iter % 3]);
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++)
                    da[off + y * stride + x] = av_clip_uint8((p ? p[y * stride + x] : 0) + a[8 * y + x]);
            for (int n = idct_bound(coef); n <= 8 && ok; n++) {
                std::fill(db.begin(), db.end(), 7);
                c_dsp.dequant_idct_add(db.data() + off, stride, p, stride, coef, q[iter % 3], n);
                for (size_t i = 0; i < da.size() && ok; i++)
                    if (da[i] != db[i]) {
                        ok = false;
                        detail = "qp " + std::to_string(qp) + " byte " + std::to_string(i) + ": " +
                                 std::to_string(da[i]) + " vs " + std::to_string(db[i]) +
                                 " (bound " + std::to_string(n) + (p ? ")" : ", no prediction)");
                    }
            }
        }
        std::string name = "dequant_idct_add qp " + std::to_string(qp);
        report(name.c_str(), ok, detail);
    }
}

// Plain full search, docs/c63-format.md section 7.3, nothing skipped.
static C63MV search_ref(const uint8_t *cur, const uint8_t *ref, int w, int h, int bx, int by, int r)
{
    int mx = 8 * bx, my = 8 * by, best = INT_MAX;
    C63MV mv = { 0, 0 };
    for (int y = std::max(0, my - r); y < std::min(my + r, h - 8); y++)
        for (int x = std::max(0, mx - r); x < std::min(mx + r, w - 8); x++) {
            int sad = 0;
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    sad += std::abs(cur[(my + i) * w + mx + j] - ref[(y + i) * w + x + j]);
            if (sad < best) {
                best = sad;
                mv.x = x - mx;
                mv.y = y - my;
            }
        }
    return mv;
}

static void check_motion_search(const MECmpContext &mecc)
{
    struct Case { int w, h, r; bool smooth; };
    static const Case cases[] = {
        { 8, 8, 8, false }, { 16, 16, 16, false }, { 16, 8, 8, true }, { 64, 48, 16, false },
        { 176, 144, 16, true }, { 88, 72, 8, false }, { 96, 64, 4, true }, { 40, 24, 64, false },
        { 272, 160, 64, true }, { 24, 200, 16, false },
    };
    for (const Case &c : cases) {
        std::vector<uint8_t> cur(c.w * c.h), ref(c.w * c.h);
        std::vector<uint16_t> sums(c.w * c.h);
        std::uniform_int_distribution<int> d(0, 255), small(0, 3);
        for (int i = 0; i < c.w * c.h; i++) {
            // smooth content has many equal SADs: exercises the tie rule
            ref[i] = c.smooth ? (i % c.w) / 4 * 8 + small(rng) : d(rng);
            cur[i] = c.smooth ? ref[(i + 3 * c.w + 2) % (c.w * c.h)] : d(rng);
        }
        ff_c63_block_sums(nullptr, sums.data(), ref.data(), c.w, c.h, 0, c.h);
        bool ok = true;
        std::string detail;
        for (int by = 0; by < c.h / 8 && ok; by++)
            for (int bx = 0; bx < c.w / 8 && ok; bx++) {
                C63MV a = search_ref(cur.data(), ref.data(), c.w, c.h, bx, by, c.r);
                // the encoder's search through me_cmp, and through me_search
                const std::pair<std::string, C63MV> got[] = {
                    { "me_cmp", ff_c63_motion_search(&mecc, cur.data(), ref.data(), sums.data(),
                                                     c.w, c.h, bx, by, c.r) },
                    { "me_search", ff_c63_motion_search_full(&c_dsp, cur.data(), ref.data(),
                                                             sums.data(), c.w, c.h, bx, by, c.r) },
                };
                for (const auto &g : got)
                    if (ok && (a.x != g.second.x || a.y != g.second.y)) {
                        ok = false;
                        detail = g.first + " " + std::to_string(c.w) + "x" + std::to_string(c.h) +
                                 " block (" + std::to_string(bx) + "," + std::to_string(by) + ")";
                    }
            }
        std::string name = "motion_search " + std::to_string(c.w) + "x" + std::to_string(c.h) +
                           " r" + std::to_string(c.r);
        report(name.c_str(), ok, detail);
    }
}

// me_search on its own: every window size 1..128 (both directions), blocks
// and references at the extremes (0 and 255: the largest SADs), and ties:
// the best block copied to every later candidate position, so that only
// the scan order decides.
static void check_me_search()
{
    const int stride = 160, rows = 128 + 8 + 1;
    std::vector<uint8_t> ref(stride * rows), blk(8 * stride);
    std::uniform_int_distribution<int> d(0, 255), n(1, 128), pos(0, 127);
    std::vector<uint16_t> sums(stride * rows);
    // the vector of the plain search against the C version's, given the
    // block sums and a seed (a candidate of the window, or none)
    auto compare = [&](const char *what, int nx, int ny, std::string &detail) {
        ff_c63_block_sums(nullptr, sums.data(), ref.data(), stride, rows, 0, rows);
        uint32_t a = c63_me_search_ref(blk.data(), ref.data(), stride, nx, ny, nullptr, -1);
        int seed = pos(rng) & 1 ? (pos(rng) % ny) << 7 | pos(rng) % nx : -1;
        uint32_t b = c_dsp.me_search(blk.data(), ref.data(), stride, nx, ny, sums.data(), seed);
        if (a != b) {
            char buf[200];
            std::snprintf(buf, sizeof(buf), "%s %dx%d seed %d: sad %u at (%u,%u) vs sad %u at (%u,%u)",
                          what, nx, ny, seed, a >> 16, a & 127, a >> 7 & 127,
                          b >> 16, b & 127, b >> 7 & 127);
            detail = buf;
            return false;
        }
        return true;
    };
    auto fill = [&](std::vector<uint8_t> &v, int mode) {
        for (auto &x : v)
            x = mode == 0 ? d(rng) : mode == 1 ? 0 : mode == 2 ? 255 : d(rng) & 0x81;
    };

    // window sizes, including the 15 bytes read past the last candidate
    bool ok = true;
    std::string detail;
    for (int nx = 1; nx <= 128 && ok; nx++)
        for (int ny = 1; ny <= 128 && ok; ny += nx % 7 + 1) {
            fill(ref, nx % 4);
            fill(blk, (nx + 2) % 4);
            ok = compare("random", nx, ny, detail);
        }
    report("me_search window sizes", ok, detail);

    // ties: the same block at a random position and at every position after
    // it in scan order in turn; the first copy must win, whatever follows
    ok = true;
    for (int iter = 0; iter < 400 && ok; iter++) {
        int nx = iter < 64 ? 1 + iter * 2 : n(rng), ny = iter < 64 ? 1 + iter : n(rng);
        fill(ref, 0);
        fill(blk, 0);
        int x = pos(rng) % nx, y = pos(rng) % ny;
        for (int i = 0; i < 8; i++)
            std::memcpy(&ref[(y + i) * stride + x], &blk[i * stride], 8);
        for (int k = 0; k < 16 && ok; k++) {
            int x2 = x + 1 + k, y2 = y + k / 4;
            if (x2 >= nx) {
                x2 -= nx;
                y2++;
            }
            if (y2 >= ny || (y2 < y + 8 && std::abs(x2 - x) < 8))
                continue;       // no room, or overlapping the first copy
            for (int i = 0; i < 8; i++)
                std::memcpy(&ref[(y2 + i) * stride + x2], &blk[i * stride], 8);
            ok = compare("tie", nx, ny, detail);
        }
        // a flat reference and block: every candidate ties
        if (iter % 8 == 0) {
            std::fill(ref.begin(), ref.end(), iter & 255);
            std::fill(blk.begin(), blk.end(), (iter * 7) & 255);
            ok = ok && compare("flat", nx, ny, detail);
        }
    }
    report("me_search ties", ok, detail);
}

// ff_c63_block_sums through each version's block_sums: every width up to
// 80 (where the SIMD part and the C rest meet), bands of rows, extremes.
static void check_block_sums()
{
    std::uniform_int_distribution<int> d(0, 255);
    bool ok = true;
    std::string detail;
    for (int w = 8; w <= 80 && ok; w++)
        for (int mode = 0; mode < 3 && ok; mode++) {
            const int h = 8 + w % 13;
            std::vector<uint8_t> src(w * h);
            for (auto &x : src)
                x = mode == 0 ? d(rng) : mode == 1 ? 255 : 0;
            std::vector<uint16_t> a(w * h, 0x5555), b(w * h, 0x5555);
            ff_c63_block_sums(nullptr, a.data(), src.data(), w, h, 0, h);
            // in two bands, as the encoder's threads do
            ff_c63_block_sums(&c_dsp, b.data(), src.data(), w, h, 0, 3);
            ff_c63_block_sums(&c_dsp, b.data(), src.data(), w, h, 3, h);
            if (a != b) {
                ok = false;
                detail = "width " + std::to_string(w);
            }
        }
    report("block_sums", ok, detail);
}

// The encoders refuse other pixel formats and sizes when opened through the
// API (the ffmpeg tool converts to a supported format before they see it).
static void check_encoder_open()
{
    struct Case { const char *codec; AVPixelFormat fmt; int w, h; bool ok; };
    static const Case cases[] = {
        { "c63", AV_PIX_FMT_YUV420P,  1,     1,     true  },
        { "c63", AV_PIX_FMT_YUVJ420P, 17,    9,     true  },
        { "c63", AV_PIX_FMT_YUV444P,  64,    64,    false },
        { "c63", AV_PIX_FMT_NV12,     64,    64,    false },
        { "c63", AV_PIX_FMT_GRAY8,    64,    64,    false },
        { "c63", AV_PIX_FMT_YUV420P,  65536, 16,    false },
        { "c63", AV_PIX_FMT_YUV420P,  16,    65536, false },
    };
    for (const Case &c : cases) {
        const AVCodec *codec = avcodec_find_encoder_by_name(c.codec);
        AVCodecContext *avctx = codec ? avcodec_alloc_context3(codec) : nullptr;
        bool opened = false;
        if (avctx) {
            avctx->pix_fmt   = c.fmt;
            avctx->width     = c.w;
            avctx->height    = c.h;
            avctx->time_base = { 1, 25 };
            av_log_set_level(AV_LOG_QUIET);
            opened = avcodec_open2(avctx, codec, nullptr) >= 0;
            av_log_set_level(AV_LOG_INFO);
            avcodec_free_context(&avctx);
        }
        std::string name = std::string("open ") + c.codec + " " + av_get_pix_fmt_name(c.fmt) +
                           " " + std::to_string(c.w) + "x" + std::to_string(c.h);
        bool good = codec && opened == c.ok;
        report(name.c_str(), good, good ? "" : c.ok ? "must open" : "must be refused");
    }
}

// The GPU entropy coder's stages (kernels/c63_ec.h), run serially by
// c63ec_serial_write_frame() (c63ec_serial.h), against the CPU writer
// (c63_write_frame()): the same packet, byte for byte, on synthetic
// frames (c63_ec_frames.h), keyframes and inter frames, quality 1, 25 and
// 50 tables.
static void check_entropy_serial()
{
    struct Case { int w, h; CoefKind kind; };
    static const Case cases[] = {
        { 1, 1, SPARSE }, { 1, 1, MAX_MAG }, { 17, 9, DENSE }, { 65, 33, MIXED },
        { 16, 16, ZERO }, { 176, 144, ZERO }, { 176, 100, SPARSE }, { 352, 288, ONES },
        { 48, 80, MAX_MAG }, { 96, 64, ZRL_CHAIN }, { 720, 577, MIXED }, { 33, 47, DC_ONLY },
        { 352, 288, DENSE },
    };
    static const int qps[] = { 1, 25, 50 };
    const AVCodec *codec = avcodec_find_encoder_by_name("c63");
    AVPacket *a = av_packet_alloc(), *b = av_packet_alloc();
    int n = 0;

    for (const Case &c : cases) {
        AVCodecContext *avctx = avcodec_alloc_context3(codec);
        C63Writer w = {};
        C63ECSerialWriter tw = {};
        SynthFrame sf;
        bool ok = avctx && a && b;
        std::string detail;

        if (ok) {
            avctx->pix_fmt   = AV_PIX_FMT_YUV420P;
            avctx->width     = c.w;
            avctx->height    = c.h;
            avctx->time_base = { 1, 25 };
            ok = avcodec_open2(avctx, codec, nullptr) >= 0;
        }
        for (int frame = 0; frame < SYNTH_FRAMES && ok; frame++) {
            uint8_t q[3][64];
            ff_c63_quant_tables(q, C63_TABLES_ANNEXK, qps[(n + frame) % 3]);
            synth_frame(sf, c.w, c.h, c.kind, frame, rng);
            if (c63_write_frame(avctx, &w, a, &sf.g, q, &sf.f) < 0 ||
                c63ec_serial_write_frame(&tw, b, &sf.g, q, &sf.f) < 0) {
                ok = false;
                detail = "coding failed";
            } else if (a->size != b->size || memcmp(a->data, b->data, a->size)) {
                int i = 0;
                while (i < a->size && i < b->size && a->data[i] == b->data[i])
                    i++;
                ok = false;
                detail = "frame " + std::to_string(frame) + ": sizes " + std::to_string(a->size) +
                         " and " + std::to_string(b->size) + ", first difference at byte " +
                         std::to_string(i);
            }
            av_packet_unref(a);
            av_packet_unref(b);
        }
        ff_c63_writer_free(&w);
        c63ec_serial_writer_free(&tw);
        avcodec_free_context(&avctx);
        std::string name = "entropy serial " + std::to_string(c.w) + "x" + std::to_string(c.h) +
                           " " + coef_kind_names[c.kind];
        report(name.c_str(), ok, detail);
        n++;
    }
    av_packet_free(&a);
    av_packet_free(&b);
}

/* The bits of a block's AC levels as the writer codes them: runs of 16
 * zeros as ZRL, (run, size) codes and size bits, EOB unless position 63
 * is non-zero. */
static long ac_bits(const int16_t c[64], const uint8_t *ac_len)
{
    long bits = 0;
    int run = 0, last = 0;
    for (int k = 1; k < 64; k++)
        if (c[k])
            last = k;
    for (int k = 1; k <= last; k++) {
        if (!c[k]) {
            run++;
            continue;
        }
        const int a = std::abs(c[k]);
        int s = 0;
        while (a >> s)
            s++;
        for (; run >= 16; run -= 16)
            bits += ac_len[0xF0];
        bits += ac_len[run << 4 | s] + s;
        run = 0;
    }
    return last < 63 ? bits + ac_len[0x00] : bits;
}

/* 256 x the squared error of the AC levels: the decoder's value of level
 * c is 4 round(c q / 4), halves away from zero. */
static long long ac_error(const int16_t c[64], const int z4[64], const uint8_t q[64])
{
    long long e = 0;
    for (int k = 1; k < 64; k++) {
        const int p = c[k] * q[k];
        const long long d = z4[k] - 64LL * ((p + 2 - (p < 0)) >> 2);
        e += d * d;
    }
    return e;
}

/*
 * -trellis: c63_rd_quant() (libavcodec_c63/c63rd.h) against brute force. Each
 * coefficient the reference codes as L may be L, L - 1 toward zero (when
 * |L| > 1) or 0; over every such choice for blocks of up to 9 non-zero
 * levels, the least error + lambda x bits, with the bits counted as the
 * writer codes them, must be what the trellis's choice costs. Blocks from
 * random residuals, sparse and dense, and from levels placed past runs of
 * 16 and more (ZRL) and at position 63 (no EOB).
 */
static void check_rd_quant()
{
    ff_c63_init_huff_codes();
    std::uniform_int_distribution<int> pix(-255, 255), pos(1, 63), qd(1, 50);
    int cases = 0, changed = 0;
    std::string detail;
    for (int t = 0; t < 4000 && detail.empty(); t++) {
        const int chroma = t & 1;
        uint8_t q[3][64];
        ff_c63_quant_tables(q, t & 2 ? C63_TABLES_FLAT : C63_TABLES_ANNEXK, qd(rng));
        const uint8_t *qt = q[chroma];
        int16_t res[64] = { 0 }, c[64], best[64];
        int z4[64];
        /* a few random residual samples, or a smooth ramp with noise */
        const int n = 1 + t % 7;
        for (int i = 0; i < n; i++)
            res[rng() % 64] = pix(rng) / (1 + (t >> 2) % 5);
        c_dsp.fdct_quant(c, res, qt);
        ff_c63_fdct_z4(z4, res);
        if (t % 11 == 0) {      /* levels far apart and at the end */
            for (int k = 1; k < 64; k++)
                c[k] = 0, z4[k] = (int)(rng() % 64) - 32;
            for (int i = 0; i < 3; i++) {
                const int k = i == 2 ? 63 : pos(rng);
                c[k] = (int16_t)(1 + rng() % 4);
                z4[k] = 64 * c[k] * qt[k] / 4 + (int)(rng() % 33) - 16;
            }
        }
        for (int k = 1; k < 64; k++)
            c[k] = av_clip(c[k], chroma ? -1023 : -511, chroma ? 1023 : 511);
        std::vector<int> nz;
        for (int k = 1; k < 64; k++)
            if (c[k])
                nz.push_back(k);
        if (nz.size() > 9)
            continue;
        const long long lambda = (long long)(rng() % 4 ? rng() % 40000 : rng() % 2000000);
        const uint8_t *len = ff_c63_huff.ac_len[chroma];
        std::memcpy(best, c, sizeof(c));
        c63_rd_quant(best, z4, qt, len, lambda);
        const long long got = ac_error(best, z4, qt) + lambda * ac_bits(best, len);
        long long min = LLONG_MAX;
        int nc = 1;
        for (size_t i = 0; i < nz.size(); i++)
            nc *= 3;
        for (int code = 0; code < nc; code++) {
            int16_t x[64];
            std::memcpy(x, c, sizeof(x));
            bool valid = true;
            for (size_t i = 0, cc = code; i < nz.size(); i++, cc /= 3) {
                const int k = nz[i], ch = (int)(cc % 3);
                if (ch == 1) {
                    if (std::abs(x[k]) < 2)
                        valid = false;
                    x[k] += x[k] < 0 ? 1 : -1;
                } else if (ch == 2) {
                    x[k] = 0;
                }
            }
            if (valid)
                min = std::min(min, ac_error(x, z4, qt) + lambda * ac_bits(x, len));
        }
        cases++;
        changed += std::memcmp(best, c, sizeof(c)) != 0;
        if (got != min || best[0] != c[0])
            detail = "case " + std::to_string(t) + ": trellis cost " + std::to_string(got) +
                     ", least " + std::to_string(min);
    }
    if (detail.empty() && (changed < cases / 10 || changed == cases))
        detail = std::to_string(changed) + " of " + std::to_string(cases) +
                 " blocks changed: the cases do not test the choice";
    report(("trellis against brute force (" + std::to_string(cases) + " blocks)").c_str(),
           detail.empty(), detail);
}

/*
 * -trellis 2: c63_rd_dc_chain() (libavcodec_c63/c63rd.h) against brute force on
 * MCU rows of up to 12 blocks (luma rows of 1 to 6 MCUs, chroma rows of
 * 1 to 12): over every choice of each block's DC between its level as
 * quantised and the next toward its exact value, the least squared error
 * + lambda x bits of the differences after the row's first block (the
 * writer's DC codes) must be what the chain's choice costs, and the
 * other levels of the blocks stay.
 */
static void check_rd_dc_chain()
{
    ff_c63_init_huff_codes();
    std::uniform_int_distribution<int> qd(1, 50), zd(-32640, 32640);
    int cases = 0, changed = 0;
    std::string detail;
    for (int t = 0; t < 3000 && detail.empty(); t++) {
        const int luma = t & 1, bw = luma ? 2 * (1 + t / 2 % 3) : 1 + t / 2 % 12;
        const int n = luma ? 2 * bw : bw, rows = luma ? 2 : 1, v = t / 7 % 3;
        uint8_t q[3][64];
        ff_c63_quant_tables(q, t & 2 ? C63_TABLES_FLAT : C63_TABLES_ANNEXK, qd(rng));
        const int qdc = q[luma ? 0 : 1][0];
        const uint8_t *len = ff_c63_huff.dc_len[!luma];
        std::vector<int16_t> coef((size_t)64 * bw * rows * (v + 1));
        std::vector<int> dcz(bw * rows * (v + 1));
        std::vector<uint8_t> back(dcz.size());
        std::vector<int> order(n), l0(n);
        /* a smooth run of DCs with noise, or random ones */
        int base = zd(rng);
        for (int i = 0; i < n; i++) {
            const int b = c63_rd_dc_block(i, luma, bw, v);
            base = t % 5 ? av_clip(base + (int)(rng() % 2001) - 1000, -32640, 32640) : zd(rng);
            dcz[b] = base;
            coef[64 * b] = (int16_t)lrint(base / (16.0 * qdc));
            for (int k = 1; k < 64; k++)
                coef[64 * b + k] = (int16_t)(rng() % 5) - 2;
            order[i] = b;
            l0[i]    = coef[64 * b];
        }
        const std::vector<int16_t> before(coef);
        const long long lambda = (long long)(rng() % 4 ? rng() % 40000 : rng() % 4000000);
        c63_rd_dc_chain(coef.data(), dcz.data(), back.data(), bw, v, luma, qdc, len, lambda);
        auto cost = [&](const std::vector<int> &lv) {
            long long c = 0;
            for (int i = 0; i < n; i++) {
                const long long a = std::abs(lv[i]), r = 64LL * ((a * qdc + 2) >> 2);
                const long long e = dcz[order[i]] - (lv[i] < 0 ? -r : r);
                c += e * e;
                if (i) {
                    const int d = std::abs(lv[i] - lv[i - 1]), sz = d ? av_log2(d) + 1 : 0;
                    c += lambda * (len[sz] + sz);
                }
            }
            return c;
        };
        std::vector<int> got(n), x(n);
        for (int i = 0; i < n; i++)
            got[i] = coef[64 * order[i]];
        long long min = LLONG_MAX;
        for (int code = 0; code < 1 << n; code++) {
            for (int i = 0; i < n; i++) {
                int lv[2];
                long long err[2];
                c63_rd_dc_cands(l0[i], dcz[order[i]], qdc, lv, err);
                x[i] = lv[code >> i & 1];
            }
            min = std::min(min, cost(x));
        }
        bool others = true;
        for (size_t k = 0; k < coef.size(); k++)
            if (k % 64 && coef[k] != before[k])
                others = false;
        cases++;
        changed += got != l0;
        if (cost(got) != min || !others)
            detail = "case " + std::to_string(t) + ": chain cost " + std::to_string(cost(got)) +
                     ", least " + std::to_string(min) + (others ? "" : ", AC levels changed");
    }
    if (detail.empty() && (changed < cases / 10 || changed == cases))
        detail = std::to_string(changed) + " of " + std::to_string(cases) +
                 " rows changed: the cases do not test the choice";
    report(("DC chain against brute force (" + std::to_string(cases) + " rows)").c_str(),
           detail.empty(), detail);
}

/* ff_c63_activity (me_cmp's SAD on tiles) against c63_sc_activity():
 * sizes at and around the tiles' edges, aligned and unaligned rows, random
 * content and the largest differences (0 and 255 alternating). */
static void check_activity(const MECmpContext &mecc)
{
    static const int sizes[][2] = {
        { 1, 1 }, { 15, 15 }, { 16, 16 }, { 17, 17 }, { 33, 17 }, { 48, 32 }, { 176, 144 },
        { 720, 577 }, { 1920, 1080 },
    };
    std::uniform_int_distribution<int> d(0, 255);
    for (const auto &sz : sizes)
        for (int kind = 0; kind < 2; kind++)
            for (int unaligned = 0; unaligned < 2; unaligned++) {
                const int w = sz[0], h = sz[1];
                const ptrdiff_t stride = unaligned ? w + 3 : (w + 63) & ~63;
                std::vector<uint8_t> buf(stride * h + 64 + 1);
                uint8_t *p = buf.data() + (64 - ((uintptr_t)buf.data() & 63)) % 64 + unaligned;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < stride; x++)
                        p[y * stride + x] = kind ? ((x + y) & 1) * 255 : d(rng);
                const uint64_t a = c63_sc_activity(p, stride, w, h);
                const uint64_t b = ff_c63_activity(&mecc, p, stride, w, h);
                std::string name = "activity " + std::to_string(w) + "x" + std::to_string(h) +
                                   (kind ? " extreme" : " random") +
                                   (unaligned ? " unaligned" : "");
                report(name.c_str(), a == b,
                       a == b ? "" : "ff_c63_activity " + std::to_string(b) +
                                     ", c63_sc_activity " + std::to_string(a));
            }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
            rng.seed(std::strtoul(argv[++i], nullptr, 0));
        else {
            std::fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
            return 2;
        }
    }

    MECmpContext mecc;
    AVCodecContext *avctx = avcodec_alloc_context3(nullptr);
    if (!avctx)
        return 1;
    init_c_dsp();
    ff_me_cmp_init(&mecc, avctx);

    check_fdct_quant();
    check_dequant_idct_add();
    check_block_sums();
    check_motion_search(mecc);
    check_activity(mecc);
    check_me_search();
    check_encoder_open();
    check_entropy_serial();
    check_rd_quant();
    check_rd_dc_chain();

    avcodec_free_context(&avctx);
    std::printf("checkc63: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
