// yuvquality: the PSNR and SSIM of a decoded video against its source, two
// raw yuv420p files of the same size, computed here from their samples
// alone (nothing of FFmpeg or of the codec), for tests that judge an
// encoder's quality apart from the encoder and from FFmpeg's filters.
//
//   yuvquality WIDTHxHEIGHT REFERENCE.yuv DISTORTED.yuv
//
// Both files hold the same number of whole frames of planar 4:2:0 (each
// chroma plane (WIDTH + 1) / 2 x (HEIGHT + 1) / 2). Prints
//
//   frames: N
//   psnr: y Y u U v V all A
//   ssim: y Y u U v V all A db D
//
// PSNR (dB) is 10 log10(255^2 / MSE), the MSE pooled over every sample of
// the plane in every frame; "all" pools the samples of the three planes
// (so luma weighs four times each chroma plane), as FFmpeg's psnr filter's
// "average" does; "inf" where the MSE is 0.
//
// SSIM is that of Wang, Bovik, Sheikh and Simoncelli (IEEE Trans. Image
// Processing 13(4), 2004) with uniform 8x8 windows:
//
//   SSIM(x, y) = (2 mx my + C1) (2 sxy + C2) / ((mx^2 + my^2 + C1) (sx^2 + sy^2 + C2))
//
// mx, my the windows' means, sx^2, sy^2 their variances and sxy their
// covariance (divided by 64), C1 = (0.01 x 255)^2, C2 = (0.03 x 255)^2.
// The windows lie at every fourth sample across and down (they overlap by
// half: the windows of x264 and of FFmpeg's ssim filter, whose constants
// differ slightly); a plane's SSIM in a frame is the mean over its
// windows, the sequence's the mean over frames, and "all" weighs the
// planes by their sample counts, as FFmpeg's ssim filter does. A plane
// smaller than 8x8 has no window and is left out of "all" ("-" printed).
// "db" is -10 log10(1 - all), the SSIM in dB (inf for identical input).
//
// The sums are integers and every floating-point step is in a fixed order
// (no contraction into fused multiply-adds: the build passes
// -ffp-contract=off), so the output is the same on every machine.
//
// Exit status: 0 with the figures printed; 1 for usage errors, files that
// cannot be read, or files of different or partial frame counts.

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

namespace {

struct Plane {
    int w, h;
    size_t offset; // within a frame
};

struct Totals {
    uint64_t sse = 0;     // squared errors, every frame
    uint64_t samples = 0; // samples, every frame
    double ssim = 0;      // sum over frames of the plane's mean SSIM
    bool has_ssim = false;
};

[[noreturn]] void fail(const char *what, const char *detail = nullptr)
{
    if (detail)
        std::fprintf(stderr, "yuvquality: %s: %s\n", what, detail);
    else
        std::fprintf(stderr, "yuvquality: %s\n", what);
    std::exit(1);
}

uint64_t plane_sse(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t sse = 0;
    for (size_t i = 0; i < n; i++) {
        const int d = a[i] - b[i];
        sse += (uint64_t)(d * d);
    }
    return sse;
}

// The mean SSIM of the 8x8 windows at every fourth sample of a plane
// (w x h samples a row of w), over the windows that fit.
double plane_ssim(const uint8_t *a, const uint8_t *b, int w, int h)
{
    const double c1 = (0.01 * 255) * (0.01 * 255);
    const double c2 = (0.03 * 255) * (0.03 * 255);
    double sum = 0;
    long count = 0;

    for (int y = 0; y + 8 <= h; y += 4) {
        for (int x = 0; x + 8 <= w; x += 4) {
            int64_t s1 = 0, s2 = 0, ss1 = 0, ss2 = 0, s12 = 0;
            for (int j = 0; j < 8; j++) {
                const uint8_t *pa = a + (size_t)(y + j) * w + x;
                const uint8_t *pb = b + (size_t)(y + j) * w + x;
                for (int i = 0; i < 8; i++) {
                    s1 += pa[i];
                    s2 += pb[i];
                    ss1 += pa[i] * pa[i];
                    ss2 += pb[i] * pb[i];
                    s12 += pa[i] * pb[i];
                }
            }
            // the moments times 64^2, exact in integers
            const int64_t m12 = s1 * s2, m11 = s1 * s1, m22 = s2 * s2;
            const int64_t v1 = 64 * ss1 - m11, v2 = 64 * ss2 - m22, cov = 64 * s12 - m12;
            const double n2 = 64.0 * 64.0;
            const double num = (2 * (double)m12 / n2 + c1) * (2 * (double)cov / n2 + c2);
            const double den = (((double)m11 + (double)m22) / n2 + c1) * (((double)v1 + (double)v2) / n2 + c2);
            sum += num / den;
            count++;
        }
    }
    return sum / count;
}

bool parse_size(const char *s, int *w, int *h)
{
    char *end;
    errno = 0;
    const long lw = std::strtol(s, &end, 10);
    if (end == s || *end != 'x' || errno)
        return false;
    const char *t = end + 1;
    const long lh = std::strtol(t, &end, 10);
    if (end == t || *end || errno)
        return false;
    if (lw < 1 || lh < 1 || lw > 65535 || lh > 65535)
        return false;
    *w = (int)lw;
    *h = (int)lh;
    return true;
}

// Reads one frame of `size` bytes; false at the end of the file, a failure
// on a partial frame or a read error.
bool read_frame(FILE *f, const char *name, std::vector<uint8_t> &buf)
{
    const size_t got = std::fread(buf.data(), 1, buf.size(), f);
    if (got == buf.size())
        return true;
    if (std::ferror(f))
        fail(name, std::strerror(errno));
    if (got)
        fail(name, "ends within a frame");
    return false;
}

std::string psnr_text(uint64_t sse, uint64_t samples)
{
    char buf[32];
    if (!sse)
        return "inf";
    std::snprintf(buf, sizeof(buf), "%.4f",
                  10 * std::log10(255.0 * 255.0 * (double)samples / (double)sse));
    return buf;
}

} // namespace

int main(int argc, char **argv)
{
    int w, h;
    if (argc != 4 || !parse_size(argv[1], &w, &h)) {
        std::fprintf(stderr, "usage: yuvquality WIDTHxHEIGHT REFERENCE.yuv DISTORTED.yuv\n");
        return 1;
    }
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    const Plane planes[3] = {
        { w, h, 0 },
        { cw, ch, (size_t)w * h },
        { cw, ch, (size_t)w * h + (size_t)cw * ch },
    };
    const size_t frame_size = (size_t)w * h + 2 * (size_t)cw * ch;

    FILE *fa = std::fopen(argv[2], "rb");
    if (!fa)
        fail(argv[2], std::strerror(errno));
    FILE *fb = std::fopen(argv[3], "rb");
    if (!fb)
        fail(argv[3], std::strerror(errno));

    std::vector<uint8_t> a(frame_size), b(frame_size);
    Totals t[3];
    long frames = 0;
    for (;;) {
        const bool more_a = read_frame(fa, argv[2], a);
        const bool more_b = read_frame(fb, argv[3], b);
        if (more_a != more_b)
            fail("the files hold different frame counts");
        if (!more_a)
            break;
        for (int p = 0; p < 3; p++) {
            const Plane &pl = planes[p];
            const size_t n = (size_t)pl.w * pl.h;
            t[p].sse += plane_sse(&a[pl.offset], &b[pl.offset], n);
            t[p].samples += n;
            if (pl.w >= 8 && pl.h >= 8) {
                t[p].ssim += plane_ssim(&a[pl.offset], &b[pl.offset], pl.w, pl.h);
                t[p].has_ssim = true;
            }
        }
        frames++;
    }
    std::fclose(fa);
    std::fclose(fb);
    if (!frames)
        fail("no frame to compare");

    uint64_t sse = 0, samples = 0;
    for (const Totals &p : t) {
        sse += p.sse;
        samples += p.samples;
    }
    std::printf("frames: %ld\n", frames);
    std::printf("psnr: y %s u %s v %s all %s\n", psnr_text(t[0].sse, t[0].samples).c_str(),
                psnr_text(t[1].sse, t[1].samples).c_str(), psnr_text(t[2].sse, t[2].samples).c_str(),
                psnr_text(sse, samples).c_str());

    std::string text[3];
    double weighted = 0, weight = 0;
    for (int p = 0; p < 3; p++) {
        if (!t[p].has_ssim) {
            text[p] = "-";
            continue;
        }
        const double mean = t[p].ssim / frames;
        const double area = (double)planes[p].w * planes[p].h;
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.6f", mean);
        text[p] = buf;
        weighted += mean * area;
        weight += area;
    }
    if (!weight) {
        std::printf("ssim: y - u - v - all - db -\n");
        return 0;
    }
    const double all = weighted / weight;
    char db[32];
    if (all >= 1)
        std::snprintf(db, sizeof(db), "inf");
    else
        std::snprintf(db, sizeof(db), "%.4f", -10 * std::log10(1 - all));
    std::printf("ssim: y %s u %s v %s all %.6f db %s\n", text[0].c_str(), text[1].c_str(),
                text[2].c_str(), all, db);
    return 0;
}
