// checkc63: each optimised Codec63 CPU routine against its reference on
// random input, in the manner of FFmpeg's checkasm.
//
//   checkc63 [--bench] [--seed N]
//
// Prints one line per routine and closes with "N passed, N failed".

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/pixdesc.h"
#include "libavcodec/me_cmp.h"
#include "libavcodec/c63/c63.h"
#include "libavcodec/c63/c63dsp.h"
#include "libavcodec/c63/c63me.h"
#include "libavcodec/c63/c63enc.h"
}
#include "tests/c63/c63_ec_frames.h"

static int passed, failed;
static bool bench;
static std::mt19937 rng(1);

static void report(const char *name, bool ok, const std::string &detail = "")
{
    std::printf("%-28s %s%s%s\n", name, ok ? "ok" : "FAILED", detail.empty() ? "" : ": ",
                detail.c_str());
    (ok ? passed : failed)++;
}

template <class F> static double time_ns(F f, int iters)
{
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; i++)
        f(i);
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / iters;
}

static void check_fdct_quant(const C63DSPContext &dsp)
{
    static const int qps[] = { 1, 5, 25, 50 };
    for (int qp : qps) {
        uint8_t q[3][64];
        ff_c63_quant_tables(q, qp);
        bool ok = true;
        std::string detail;
        for (int iter = 0; iter < 20000 && ok; iter++) {
            int16_t res[64], a[64], b[64];
            int range = iter % 4 == 0 ? 255 : iter % 4 == 1 ? 32 : iter % 4 == 2 ? 4 : 1;
            std::uniform_int_distribution<int> d(iter & 1 ? -range : 0, range);
            for (auto &v : res)
                v = d(rng);
            ff_c63_fdct_quant_ref(a, res, q[iter % 3]);
            dsp.fdct_quant(b, res, q[iter % 3]);
            for (int k = 0; k < 64; k++)
                if (a[k] != b[k]) {
                    ok = false;
                    detail = "qp " + std::to_string(qp) + " coefficient " + std::to_string(k) +
                             ": " + std::to_string(a[k]) + " vs " + std::to_string(b[k]);
                    break;
                }
        }
        std::string name = "fdct_quant qp " + std::to_string(qp);
        report(name.c_str(), ok, detail);
    }
}

static void check_dequant_idct(const C63DSPContext &dsp)
{
    static const int qps[] = { 1, 5, 25, 50 };
    for (int qp : qps) {
        uint8_t q[3][64];
        ff_c63_quant_tables(q, qp);
        bool ok = true;
        std::string detail;
        for (int iter = 0; iter < 20000 && ok; iter++) {
            int16_t coef[64] = { 0 }, a[64], b[64];
            // realistic coefficients: from transforming a random residual,
            // plus sparse random blocks (DC only, empty, a few AC)
            if (iter % 3 == 0) {
                int16_t res[64];
                std::uniform_int_distribution<int> d(-255, 255);
                for (auto &v : res)
                    v = d(rng);
                ff_c63_fdct_quant_ref(coef, res, q[iter % 3]);
            } else {
                std::uniform_int_distribution<int> d(-300, 300), k(0, 63);
                int n = iter % 3 == 1 ? 0 : 1 + iter % 5;
                coef[0] = d(rng);
                for (int i = 0; i < n; i++)
                    coef[k(rng)] = d(rng) / 8;
                if (iter % 7 == 0)
                    coef[0] = 0;
            }
            ff_c63_dequant_idct_ref(a, coef, q[iter % 3]);
            dsp.dequant_idct(b, coef, q[iter % 3]);
            for (int i = 0; i < 64; i++)
                if (a[i] != b[i]) {
                    ok = false;
                    detail = "qp " + std::to_string(qp) + " sample " + std::to_string(i) + ": " +
                             std::to_string(a[i]) + " vs " + std::to_string(b[i]);
                    break;
                }
        }
        std::string name = "dequant_idct qp " + std::to_string(qp);
        report(name.c_str(), ok, detail);
    }
}

// Plain full search, FORMAT.md section 6, nothing skipped.
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
        ff_c63_block_sums(sums.data(), ref.data(), c.w, c.h, 0, c.h);
        bool ok = true;
        std::string detail;
        for (int by = 0; by < c.h / 8 && ok; by++)
            for (int bx = 0; bx < c.w / 8 && ok; bx++) {
                C63MV a = search_ref(cur.data(), ref.data(), c.w, c.h, bx, by, c.r);
                C63MV b = ff_c63_motion_search(&mecc, cur.data(), ref.data(), sums.data(),
                                               c.w, c.h, bx, by, c.r);
                if (a.x != b.x || a.y != b.y) {
                    ok = false;
                    detail = std::to_string(c.w) + "x" + std::to_string(c.h) + " block (" +
                             std::to_string(bx) + "," + std::to_string(by) + ")";
                }
            }
        std::string name = "motion_search " + std::to_string(c.w) + "x" + std::to_string(c.h) +
                           " r" + std::to_string(c.r);
        report(name.c_str(), ok, detail);
    }
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
// ff_c63_write_frame_twin(), against the CPU writer ff_c63_write_frame():
// the same packet, byte for byte, on synthetic frames (c63_ec_frames.h),
// keyframes and inter frames, quality 1, 25 and 50 tables.
static void check_entropy_twin()
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
        C63TwinWriter tw = {};
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
        for (int frame = 0; frame < 4 && ok; frame++) {
            uint8_t q[3][64];
            ff_c63_quant_tables(q, qps[(n + frame) % 3]);
            synth_frame(sf, c.w, c.h, c.kind, frame, rng);
            if (ff_c63_write_frame(avctx, &w, a, &sf.g, q, &sf.f) < 0 ||
                ff_c63_write_frame_twin(avctx, &tw, b, &sf.g, q, &sf.f) < 0) {
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
        ff_c63_twin_writer_free(&tw);
        avcodec_free_context(&avctx);
        std::string name = "entropy twin " + std::to_string(c.w) + "x" + std::to_string(c.h) +
                           " " + coef_kind_names[c.kind];
        report(name.c_str(), ok, detail);
        n++;
    }
    av_packet_free(&a);
    av_packet_free(&b);
}

static void run_bench(const C63DSPContext &dsp, const MECmpContext &mecc)
{
    uint8_t q[3][64];
    ff_c63_quant_tables(q, 25);
    std::vector<int16_t> res(64 * 1024), coef(64 * 1024), out(64 * 1024);
    std::uniform_int_distribution<int> d(-64, 64);
    for (auto &v : res)
        v = d(rng);
    for (int i = 0; i < 1024; i++)
        ff_c63_fdct_quant_ref(&coef[64 * i], &res[64 * i], q[0]);
    const int n = 200000;
    double r1 = time_ns([&](int i) { ff_c63_fdct_quant_ref(&out[64 * (i & 1023)], &res[64 * (i & 1023)], q[0]); }, n);
    double o1 = time_ns([&](int i) { dsp.fdct_quant(&out[64 * (i & 1023)], &res[64 * (i & 1023)], q[0]); }, n);
    double r2 = time_ns([&](int i) { ff_c63_dequant_idct_ref(&out[64 * (i & 1023)], &coef[64 * (i & 1023)], q[0]); }, n);
    double o2 = time_ns([&](int i) { dsp.dequant_idct(&out[64 * (i & 1023)], &coef[64 * (i & 1023)], q[0]); }, n);
    std::printf("bench: fdct_quant    ref %7.1f ns  opt %7.1f ns  (%.1fx)\n", r1, o1, r1 / o1);
    std::printf("bench: dequant_idct  ref %7.1f ns  opt %7.1f ns  (%.1fx)\n", r2, o2, r2 / o2);

    const int w = 768, h = 576;
    std::vector<uint8_t> cur(w * h), ref(w * h);
    std::vector<uint16_t> sums(w * h);
    for (int i = 0; i < w * h; i++) {
        ref[i] = (i % w + i / w) & 255;
        cur[i] = ref[(i + 2 * w + 3) % (w * h)];
    }
    ff_c63_block_sums(sums.data(), ref.data(), w, h, 0, h);
    int blocks = (w / 8) * (h / 8);
    static volatile int sink;
    double rm = time_ns([&](int i) { sink = search_ref(cur.data(), ref.data(), w, h, i % (w / 8), i / (w / 8), 16).x; }, blocks);
    double om = time_ns([&](int i) {
        ff_c63_motion_search(&mecc, cur.data(), ref.data(), sums.data(), w, h, i % (w / 8), i / (w / 8), 16);
    }, blocks);
    std::printf("bench: motion_search ref %7.1f ns  opt %7.1f ns  (%.1fx) per 8x8 block, range 16\n",
                rm, om, rm / om);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--bench"))
            bench = true;
        else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
            rng.seed(std::strtoul(argv[++i], nullptr, 0));
        else {
            std::fprintf(stderr, "usage: %s [--bench] [--seed N]\n", argv[0]);
            return 2;
        }
    }

    C63DSPContext dsp;
    MECmpContext mecc;
    AVCodecContext *avctx = avcodec_alloc_context3(nullptr);
    if (!avctx)
        return 1;
    ff_c63dsp_init(&dsp);
    ff_me_cmp_init(&mecc, avctx);

    check_fdct_quant(dsp);
    check_dequant_idct(dsp);
    check_motion_search(mecc);
    check_encoder_open();
    check_entropy_twin();
    if (bench)
        run_bench(dsp, mecc);

    avcodec_free_context(&avctx);
    std::printf("checkc63: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
