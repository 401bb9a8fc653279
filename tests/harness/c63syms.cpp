// c63syms: reads a .c63 stream's entropy-coded data symbol by symbol, with
// its own Huffman decoding of the standard JPEG tables, and counts the
// blocks of inter frames without a vector (use_mv 0, -intra_rd) and the
// luminance AC codes of run 0, size 10: the code that the reference
// decoder reads wrongly (docs/c63-format.md, quirk Q3), so that a stream
// with one stops it. The encoder's rate-controlled modes must never send it.
//
//   c63syms FILE.c63
//
// Prints the number of frames and of those blocks and codes, the codes
// last; exits 1 on a stream it cannot read.

#include <cstdint>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

extern "C" {
#include "libavcodec/jpegtables.h"
}

namespace {

// A canonical Huffman table (ITU-T T.81 Annex C): (length, code) -> symbol.
struct Huff {
    std::map<std::pair<int, int>, int> sym;
    Huff(const uint8_t *bits, const uint8_t *val)
    {
        int k = 0, code = 0;
        for (int l = 1; l <= 16; l++, code <<= 1)
            for (int n = 0; n < bits[l]; n++)
                sym[{ l, code++ }] = val[k++];
    }
};

struct Bits {
    std::vector<uint8_t> d;
    size_t pos = 0;     // in bits
    int bit() { size_t i = pos++; return i / 8 < d.size() ? d[i / 8] >> (7 - i % 8) & 1 : 0; }
    int get(int n) { int v = 0; while (n--) v = v << 1 | bit(); return v; }
    int read(const Huff &h)
    {
        int code = 0;
        for (int l = 1; l <= 16; l++) {
            code = code << 1 | bit();
            auto it = h.sym.find({ l, code });
            if (it != h.sym.end())
                return it->second;
        }
        return -1;
    }
};

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE.c63\n", argv[0]);
        return 2;
    }
    FILE *f = std::fopen(argv[1], "rb");
    if (!f) {
        std::fprintf(stderr, "c63syms: cannot open %s\n", argv[1]);
        return 1;
    }
    std::vector<uint8_t> s;
    for (int c; (c = std::fgetc(f)) != EOF;)
        s.push_back(c);
    std::fclose(f);

    const Huff dc[2] = { { ff_mjpeg_bits_dc_luminance, ff_mjpeg_val_dc },
                         { ff_mjpeg_bits_dc_chrominance, ff_mjpeg_val_dc } };
    const Huff ac[2] = { { ff_mjpeg_bits_ac_luminance, ff_mjpeg_val_ac_luminance },
                         { ff_mjpeg_bits_ac_chrominance, ff_mjpeg_val_ac_chrominance } };
    const size_t header = 655;          // SOI .. SOS, fixed (docs/c63-format.md)
    long frames = 0, q3 = 0, novec = 0;
    size_t at = 0;
    while (at < s.size()) {
        if (s.size() - at < header || s[at] != 0xFF || s[at + 1] != 0xD8) {
            std::fprintf(stderr, "c63syms: no frame header at byte %zu\n", at);
            return 1;
        }
        const int h = s[at + 206] << 8 | s[at + 207], w = s[at + 208] << 8 | s[at + 209];
        const int key = s[at + 220];
        Bits b;
        size_t i = at + header;
        for (;; i++) {
            if (i + 1 >= s.size()) {
                std::fprintf(stderr, "c63syms: frame %ld has no EOI marker\n", frames);
                return 1;
            }
            if (s[i] != 0xFF) {
                b.d.push_back(s[i]);
                continue;
            }
            if (s[i + 1] == 0xD9)
                break;
            b.d.push_back(0xFF);
            i++;                        // the stuffed 0x00
        }
        at = i + 2;

        auto value = [&](const Huff &t) {
            int size = b.read(t);
            if (size < 0)
                return false;
            b.get(size);
            return true;
        };
        const int mb_w = (w + 15) / 16, mb_h = (h + 15) / 16;
        for (int v = 0; v < mb_h; v++)
            for (int u = 0; u < mb_w; u++)
                for (int k = 0; k < 6; k++) {
                    const int chroma = k >= 4;
                    if (b.bit()) {          // use_mv
                        if (key) {
                            std::fprintf(stderr, "c63syms: vector in keyframe %ld\n", frames);
                            return 1;
                        }
                        if (!b.bit() && !(value(dc[0]) && value(dc[0]))) {
                            std::fprintf(stderr, "c63syms: bad vector in frame %ld\n", frames);
                            return 1;
                        }
                    } else {
                        novec += !key;
                    }
                    if (!value(dc[chroma])) {
                        std::fprintf(stderr, "c63syms: bad DC code in frame %ld\n", frames);
                        return 1;
                    }
                    for (int n = 1; n < 64;) {
                        int sym = b.read(ac[chroma]);
                        if (sym < 0) {
                            std::fprintf(stderr, "c63syms: bad AC code in frame %ld\n", frames);
                            return 1;
                        }
                        if (sym == 0x00)
                            break;                      // EOB
                        if (sym == 0xF0) {
                            n += 16;                    // ZRL
                            continue;
                        }
                        q3 += !chroma && sym == 0x0A;
                        n += (sym >> 4) + 1;
                        b.get(sym & 15);
                    }
                }
        frames++;
    }
    std::printf("frames: %ld\nblocks of inter frames without a vector: %ld\n"
                "luma AC codes of run 0, size 10: %ld\n", frames, novec, q3);
    return 0;
}
