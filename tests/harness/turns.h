/*
 * Times per frame of two codec instances that take turns on the same
 * frames (tests/encthreads, tests/decthreads)
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

#ifndef TESTS_C63_TURNS_H
#define TESTS_C63_TURNS_H

#include <algorithm>
#include <cstdio>
#include <vector>

/** Times of the frames 0 .. frames - 1 (rounds of per_round frames) of
 *  two instances; a frame may be left untimed by either. Within a round,
 *  groups of group frames (the last one shorter) are taken as one for the
 *  best time over the rounds. */
struct TurnTimes {
    std::vector<double> t[2];   ///< seconds per frame, per instance; < 0: not timed
    size_t per_round, group;

    TurnTimes(size_t frames, size_t per_round, size_t group)
        : per_round(per_round), group(group ? group : 1)
    {
        t[0].assign(frames, -1);
        t[1].assign(frames, -1);
    }

    void add(int who, size_t n, double s)
    {
        t[who][n] = s;
    }

    /** over the frames timed for both: each instance's time and their number */
    double total(int who, size_t *count) const
    {
        double s = 0;
        *count = 0;
        for (size_t n = 0; n < t[who].size(); n++)
            if (t[0][n] >= 0 && t[1][n] >= 0) {
                s += t[who][n];
                ++*count;
            }
        return s;
    }

    /** the median over the frames timed for both of the first instance's
     *  time over the second's */
    double median_ratio() const
    {
        std::vector<double> r;
        for (size_t n = 0; n < t[0].size(); n++)
            if (t[0][n] >= 0 && t[1][n] > 0)
                r.push_back(t[0][n] / t[1][n]);
        if (r.empty())
            return 0;
        std::sort(r.begin(), r.end());
        const size_t m = r.size();
        return m & 1 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2;
    }

    /** the sum, over the groups of a round, of each group's shortest time
     *  over the rounds (a group's time: of its frames timed for both; a
     *  group none of whose frames was timed in a round does not count
     *  there), and the number of frames in the groups that count */
    double best(int who, size_t *count) const
    {
        const size_t nb_groups = (per_round + group - 1) / group;
        std::vector<double> b(nb_groups, -1);
        std::vector<size_t> nb(nb_groups, 0);
        for (size_t r0 = 0; r0 < t[who].size(); r0 += per_round)
            for (size_t g = 0; g < nb_groups; g++) {
                double s = 0;
                size_t k = 0;
                for (size_t n = r0 + g * group; n < std::min(r0 + (g + 1) * group, t[who].size()) &&
                                                n < r0 + per_round; n++)
                    if (t[0][n] >= 0 && t[1][n] >= 0) {
                        s += t[who][n];
                        k++;
                    }
                if (k && (b[g] < 0 || s < b[g])) {
                    b[g]  = s;
                    nb[g] = k;
                }
            }
        double s = 0;
        *count = 0;
        for (size_t g = 0; g < nb_groups; g++)
            if (b[g] >= 0) {
                s += b[g];
                *count += nb[g];
            }
        return s;
    }

    /**
     * Print, for frames frames (rounds of per_round), of which F were timed
     * for both:
     *   PROG: WHAT, F frames: A threads X ms a frame (P fps), B threads Y ms
     *   a frame (Q fps), R.RRx (median of the frames' ratios M.MMx), ITEMS
     *   identical|DIFFERENT
     * and with rounds > 1
     *   best of ROUNDS: A threads X ms a frame, B threads Y ms a frame, R.RRx
     */
    void print(const char *prog, const char *what, const int threads[2], int rounds,
               const char *items, bool differ) const
    {
        size_t n, nb;
        const double t0 = total(0, &n), t1 = total(1, &n);
        printf("%s: %s, %zu frames: %d threads %.3f ms a frame (%.1f fps), "
               "%d threads %.3f ms a frame (%.1f fps), %.2fx (median of the frames' ratios %.2fx), "
               "%s %s\n", prog, what, n,
               threads[0], n ? 1e3 * t0 / n : 0, t0 > 0 ? n / t0 : 0,
               threads[1], n ? 1e3 * t1 / n : 0, t1 > 0 ? n / t1 : 0,
               t1 > 0 ? t0 / t1 : 0, median_ratio(),
               items, differ ? "DIFFERENT" : "identical");
        if (rounds > 1 && per_round) {
            const double b0 = best(0, &nb), b1 = best(1, &nb);
            printf("best of %d: %d threads %.3f ms a frame, %d threads %.3f ms a frame, %.2fx\n",
                   rounds, threads[0], nb ? 1e3 * b0 / nb : 0, threads[1], nb ? 1e3 * b1 / nb : 0,
                   b1 > 0 ? b0 / b1 : 0);
        }
    }
};

#endif /* TESTS_C63_TURNS_H */
