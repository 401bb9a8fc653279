// Bjontegaard delta rate (VCEG-M33): how much more (or, negative, less)
// rate test needs than anchor for the same quality, averaged over the
// quality range both cover; with -q, the delta quality: how much more test
// has than anchor at the same rate, averaged over the rates both cover.
//
//   bdrate [-q] ANCHOR TEST
//
// Each file holds one operating point per line, "rate quality" (any rate
// unit, the same in both; quality in dB, or any metric that grows with
// quality), at least four points. Prints the delta rate in percent (the
// delta quality in the quality's unit). log(rate) is fitted as a cubic in
// quality by least squares (quality as a cubic in log(rate)) and the two
// fits are integrated over the overlap of the ranges.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>
#include <vector>

typedef std::vector<std::pair<double, double>> Points;

static bool load(const char *path, Points &p, bool delta_quality)
{
    std::ifstream in(path);
    double r, q;
    while (in >> r >> q) {
        if (!(r > 0)) {
            std::fprintf(stderr, "bdrate: %s: rate %g is not positive\n", path, r);
            return false;
        }
        if (delta_quality)
            p.push_back({std::log(r), q});
        else
            p.push_back({q, std::log(r)});
    }
    if (!in.eof() || p.size() < 4) {
        std::fprintf(stderr, "bdrate: %s: need at least four lines of \"rate quality\"\n", path);
        return false;
    }
    return true;
}

// least squares cubic c0 + c1 x + c2 x^2 + c3 x^3 through the points
// (normal equations, Gaussian elimination with partial pivoting; x centred)
static bool fit(const Points &p, double x0, double c[4])
{
    double a[4][5] = {};
    for (auto &pt : p) {
        double x = pt.first - x0, pw[7] = {1};
        for (int i = 1; i < 7; i++)
            pw[i] = pw[i - 1] * x;
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++)
                a[i][j] += pw[i + j];
            a[i][4] += pw[i] * pt.second;
        }
    }
    for (int col = 0; col < 4; col++) {
        int piv = col;
        for (int r = col + 1; r < 4; r++)
            if (std::fabs(a[r][col]) > std::fabs(a[piv][col]))
                piv = r;
        if (std::fabs(a[piv][col]) < 1e-12)
            return false;
        for (int j = 0; j < 5; j++)
            std::swap(a[col][j], a[piv][j]);
        for (int r = 0; r < 4; r++) {
            if (r == col)
                continue;
            double f = a[r][col] / a[col][col];
            for (int j = col; j < 5; j++)
                a[r][j] -= f * a[col][j];
        }
    }
    for (int i = 0; i < 4; i++)
        c[i] = a[i][4] / a[i][i];
    return true;
}

static double integral(const double c[4], double x0, double lo, double hi)
{
    auto prim = [&](double x) {
        x -= x0;
        return c[0] * x + c[1] * x * x / 2 + c[2] * x * x * x / 3 + c[3] * x * x * x * x / 4;
    };
    return prim(hi) - prim(lo);
}

int main(int argc, char **argv)
{
    Points a, b;
    const bool dq = argc == 4 && !std::strcmp(argv[1], "-q");
    if (argc != 3 + dq) {
        std::fprintf(stderr, "usage: bdrate [-q] ANCHOR TEST (lines of \"rate quality\")\n");
        return 2;
    }
    if (!load(argv[1 + dq], a, dq) || !load(argv[2 + dq], b, dq))
        return 1;
    double alo = 1e300, ahi = -1e300, blo = 1e300, bhi = -1e300;
    for (auto &p : a)
        alo = std::fmin(alo, p.first), ahi = std::fmax(ahi, p.first);
    for (auto &p : b)
        blo = std::fmin(blo, p.first), bhi = std::fmax(bhi, p.first);
    double lo = std::fmax(alo, blo), hi = std::fmin(ahi, bhi);
    if (!(hi > lo)) {
        std::fprintf(stderr, "bdrate: the %s ranges do not overlap\n", dq ? "rate" : "quality");
        return 1;
    }
    double x0 = (lo + hi) / 2, ca[4], cb[4];
    if (!fit(a, x0, ca) || !fit(b, x0, cb)) {
        std::fprintf(stderr, "bdrate: the points do not determine a cubic\n");
        return 1;
    }
    double d = (integral(cb, x0, lo, hi) - integral(ca, x0, lo, hi)) / (hi - lo);
    std::printf("%.2f\n", dq ? d : (std::exp(d) - 1) * 100);
    return 0;
}
