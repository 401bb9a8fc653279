#!/bin/sh
# The complete build against the distribution's own ffmpeg: every encoder,
# decoder, muxer, demuxer, filter, protocol, bitstream filter and hardware
# device type that the distribution's ffmpeg lists must be listed by ours
# too, unless it is an exception computed here:
#
#   removed upstream   FFmpeg 9.0 has no component of that kind under that
#                      name (9.0's lists: SRC/configure --list-*, the public
#                      names from the component definitions in SRC);
#   library left out   the component exists in 9.0, is disabled in our
#                      configure result (CONFIGDIR/config_components.h) and
#                      one of the external libraries it needs (its _deps,
#                      _deps_any and _select in SRC/configure, followed
#                      through the components it selects) is disabled in
#                      CONFIGDIR/config.h.
#
# Anything else that is missing is a failure, printed with its name. Each
# kind also checks the name mapping: the components enabled in CONFIGDIR,
# under the public names computed from the source, are exactly those our
# ffmpeg lists.
#
#   coverage.sh BUILD SRC CONFIGDIR
#
# BUILD holds our ffmpeg (BUILD/ffmpeg), SRC the FFmpeg 9.0 source tree
# (build/ffmpeg-9.0.2), CONFIGDIR the folder our ffmpeg was configured in
# (config.h, config_components.h). The distribution's ffmpeg is
# $DIST_FFMPEG, by default /usr/bin/ffmpeg; without it nothing can be
# compared: the script says SKIPPED and why, and exits 77 (never 0), as
# tests/clients/deb.sh and pyav.sh do. Each list is read from a run of
# ffmpeg that succeeded cleanly (tests/fate/checked.sh: exit status 0, no
# sanitizer report).
# Prints "PASS: what" / "FAILED: what (details)" and "N passed, N failed".
set -u
if [ $# -ne 3 ]; then
    echo "usage: $0 BUILD SRC CONFIGDIR" >&2
    exit 2
fi
BUILD=$1 SRC=$2 CONF=$3
DIST=${DIST_FFMPEG:-/usr/bin/ffmpeg}
OURS=$BUILD/ffmpeg
. "$(dirname "$0")/../fate/checked.sh"

pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAILED: $1"; }
finish() {
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
}

if [ ! -x "$DIST" ]; then
    echo "SKIPPED (nothing was tested, this is not a pass): no distribution ffmpeg to compare with ($DIST; Debian: apt-get install ffmpeg)"
    exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/c63-coverage.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
export LC_ALL=C
CHECKED_ERR=$TMP/stderr

for f in "$SRC/configure" "$SRC/libavcodec/allcodecs.c" "$SRC/libavutil/hwcontext.c" \
         "$CONF/config.h" "$CONF/config_components.h"; do
    [ -r "$f" ] || { bad "inputs present ($f missing)"; finish; }
done
for p in "$DIST" "$OURS"; do
    if ! run_ok "$p" -hide_banner -version > "$TMP/version" 2>&1; then
        bad "$p runs ($(tail -n 1 "$TMP/version"))"
        finish
    fi
done
run_ok "$DIST" -hide_banner -version > "$TMP/version" 2> /dev/null
echo "distribution: $(head -n 1 "$TMP/version")"
run_ok "$OURS" -hide_banner -version > "$TMP/version" 2> /dev/null
echo "ours:         $(head -n 1 "$TMP/version")"

# ---------------------------------------------------------------------------
# What an ffmpeg lists: list FFMPEG KIND, one name a line, sorted; fails
# where ffmpeg did not succeed cleanly (its stderr, and how it ended, go to
# stderr). KIND: encoders decoders muxers demuxers filters iprotocols
# oprotocols bsfs hwaccels. Muxer and demuxer names are split at their
# commas ("mov,mp4,m4a,3gp,3g2,mj2" gives six names).
list() {
    case $2 in
    iprotocols|oprotocols) opt=protocols ;;
    *)                     opt=$2 ;;
    esac
    run_ok "$1" -hide_banner -"$opt" > "$TMP/listing" || return 1
    case $2 in
    encoders|decoders)
        awk 'p && NF >= 2 { print $2 } /^ -+$/ { p = 1 }' "$TMP/listing" ;;
    muxers|demuxers)
        # " D  name" (5.1) or " D d name" (with the device column of 7.0
        # on): the flags are as wide as in the legend's " D. = ..." line
        awk '
            /= Demuxing supported/ { w = length($1); next }
            p { s = substr($0, 2 + w); split(s, a, " "); n = split(a[1], b, ",")
                for (i = 1; i <= n; i++) print b[i] }
            /^ -+$/ { p = 1 }' "$TMP/listing" ;;
    filters)
        awk '$3 ~ /->/ { print $2 }' "$TMP/listing" ;;
    iprotocols)
        awk '/^Output:/ { p = 0 } p && NF { print $1 } /^Input:/ { p = 1 }' "$TMP/listing" ;;
    oprotocols)
        awk 'p && NF { print $1 } /^Output:/ { p = 1 }' "$TMP/listing" ;;
    bsfs)
        awk 'p && NF { print $1 } /^Bitstream filters:/ { p = 1 }' "$TMP/listing" ;;
    hwaccels)
        awk 'p && NF { print $1 } /^Hardware acceleration methods:/ { p = 1 }' "$TMP/listing" ;;
    esac > "$TMP/listed"
    sort -u "$TMP/listed"
}

# ---------------------------------------------------------------------------
# FFmpeg 9.0's components: "KIND CONFIG IDENT" for each, CONFIG being the
# configure name (CONFIG_<CONFIG> in config_components.h), IDENT the C
# struct's name without ff_. The lists are configure's own.
cfglist() {     # the configure names of one kind, one a line
    (cd "$SRC" && ./configure --list-"$1") | tr -s ' \t' '\n\n' | sed '/^$/d'
}
: > "$TMP/comp"
for k in encoder decoder muxer demuxer protocol bsf; do
    cfglist ${k}s > "$TMP/l.$k"
    [ -s "$TMP/l.$k" ] || { bad "$SRC/configure --list-${k}s lists something"; finish; }
done
cfglist indevs > "$TMP/l.indev"
cfglist outdevs > "$TMP/l.outdev"
cfglist filters > "$TMP/l.filter"
awk '{ print "encoders", $1 "_encoder", $1 "_encoder" }' "$TMP/l.encoder" >> "$TMP/comp"
awk '{ print "decoders", $1 "_decoder", $1 "_decoder" }' "$TMP/l.decoder" >> "$TMP/comp"
awk '{ print "muxers", $1 "_muxer", $1 "_muxer" }' "$TMP/l.muxer" >> "$TMP/comp"
awk '{ print "muxers", $1 "_outdev", $1 "_muxer" }' "$TMP/l.outdev" >> "$TMP/comp"
awk '{ print "demuxers", $1 "_demuxer", $1 "_demuxer" }' "$TMP/l.demuxer" >> "$TMP/comp"
awk '{ print "demuxers", $1 "_indev", $1 "_demuxer" }' "$TMP/l.indev" >> "$TMP/comp"
awk '{ print "iprotocols", $1 "_protocol", $1 "_protocol"
       print "oprotocols", $1 "_protocol", $1 "_protocol" }' "$TMP/l.protocol" >> "$TMP/comp"
awk '{ print "bsfs", $1 "_bsf", $1 "_bsf" }' "$TMP/l.bsf" >> "$TMP/comp"
# a filter's struct is ff_vf_NAME, ff_af_NAME, ff_vsrc_NAME... (allfilters.c,
# the file configure reads the list from)
sed -n 's/^extern const FFFilter ff_\([avfsinkrc]\{2,5\}_\([[:alnum:]_]\{1,\}\)\);/\2 \1/p' \
    "$SRC/libavfilter/allfilters.c" | sort > "$TMP/filterident"
awk '{ print $2 }' "$TMP/filterident" | sort > "$TMP/filterident.k"
sort "$TMP/l.filter" | join - "$TMP/filterident" | awk '{ print "filters", $1 "_filter", $2 }' >> "$TMP/comp"
if [ "$(grep -c '^filters ' "$TMP/comp")" -ne "$(wc -l < "$TMP/l.filter")" ]; then
    bad "every filter of configure --list-filters found in allfilters.c"
fi
# buffer, abuffer, buffersink, abuffersink: declared so that configure does
# not list them ("extern  const"), always built
sed -n 's/^extern  *const FFFilter ff_\([avfsinkrc]\{2,5\}_[[:alnum:]_]\{1,\}\);/\1/p' \
    "$SRC/libavfilter/allfilters.c" | sort | join -v 1 - "$TMP/filterident.k" |
    awk '{ print "filters", "builtin_" $1, $1 }' > "$TMP/builtin"
cat "$TMP/builtin" >> "$TMP/comp"
# hardware device types: hwcontext.c's table, "#if CONFIG_X" then
# "&ff_hwcontext_type_Y,"; the config name is X (the library)
awk '/^#if CONFIG_/ { c = tolower(substr($2, 8)) }
     /&ff_hwcontext_type_/ { s = $1; sub(/^&ff_/, "", s); sub(/,.*/, "", s); print "hwaccels", c, s }' \
    "$SRC/libavutil/hwcontext.c" >> "$TMP/comp"

# ---------------------------------------------------------------------------
# Public names. A struct whose .p.name / .name is a string literal gives it
# directly; a struct built by a macro (pcm, image pipes, the *_qsv, *_cuvid,
# *_v4l2m2m... families) gives a pattern: the macro's struct name with its
# parameters as groups, its name expression (#param, AV_STRINGIFY(param),
# "literal") as the replacement; the most specific pattern is tried first.
find -L "$SRC/libavcodec" "$SRC/libavformat" "$SRC/libavfilter" "$SRC/libavdevice" "$SRC/libavutil" \
    \( -name '*.c' -o -name '*.h' -o -name '*.m' \) -type f 2>/dev/null | sort > "$TMP/files"
STRUCTS='(FFCodec|FFInputFormat|FFOutputFormat|URLProtocol|FFBitStreamFilter|FFFilter|HWContextType)'
: > "$TMP/literal"; : > "$TMP/templates"
xargs awk -v S="$STRUCTS" -v lit="$TMP/literal" -v tpl="$TMP/templates" '
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    function macro(b,    hdr, np, pl, i, sx, nx, t, nt, re, rep, lits, grp, g, tok) {
        if (!match(b, /#[ \t]*define[ \t]+[A-Za-z0-9_]+\([^)]*\)/)) return
        hdr = substr(b, RSTART, RLENGTH); sub(/^[^(]*\(/, "", hdr); sub(/\)$/, "", hdr)
        np = split(hdr, pl, ",")
        delete isp
        for (i = 1; i <= np; i++) isp[trim(pl[i])] = 1
        if (!match(b, S "[ \t]+ff_[^=]*=")) return
        sx = substr(b, RSTART, RLENGTH); sub(/^[^ \t]+[ \t]+ff_/, "", sx); sub(/=$/, "", sx)
        gsub(/[ \t]/, "", sx)
        if (index(sx, "##") == 0) return
        if (!match(b, /\.(p\.)?name[ \t]*=[^,]*,/)) return
        nx = substr(b, RSTART, RLENGTH); sub(/^[^=]*=/, "", nx); sub(/,$/, "", nx)
        # the struct name as a sed pattern
        nt = split(sx, t, "##"); re = ""; lits = 0; grp = 0
        delete gno
        for (i = 1; i <= nt; i++) {
            if (t[i] in isp) { if (!(t[i] in gno)) gno[t[i]] = ++grp; re = re "\\([a-z0-9_]*\\)" }
            else if (t[i] ~ /^[A-Za-z0-9_]*$/) { re = re t[i]; lits += length(t[i]) }
            else return
        }
        # the name expression as the replacement
        rep = ""; nx = trim(nx)
        while (nx != "") {
            if (match(nx, /^#[ \t]*[A-Za-z0-9_]+/)) { tok = substr(nx, 2, RLENGTH - 1); tok = trim(tok) }
            else if (match(nx, /^AV_STRINGIFY\([ \t]*[A-Za-z0-9_]+[ \t]*\)/)) { tok = substr(nx, 14, RLENGTH - 14); tok = trim(tok) }
            else if (match(nx, /^"[A-Za-z0-9_]*"/)) { rep = rep substr(nx, 2, RLENGTH - 2); nx = trim(substr(nx, RLENGTH + 1)); continue }
            else return
            if (!(tok in gno)) return
            rep = rep "\\" gno[tok]
            nx = trim(substr(nx, RLENGTH + 1))
        }
        print lits "\ts/^" re "$/& " rep "/" >> tpl
    }
    FNR == 1 { cur = ""; inmac = 0 }
    inmac {
        l = $0; c = sub(/\\[ \t]*$/, "", l); body = body " " l
        if (!c) { macro(body); inmac = 0 }
        next
    }
    /^[ \t]*#[ \t]*define[ \t]+[A-Za-z0-9_]+\(.*\\[ \t]*$/ {
        body = $0; sub(/\\[ \t]*$/, "", body); inmac = 1; next
    }
    $0 ~ S "[ \t]+ff_[A-Za-z0-9_]+[ \t]*=[ \t]*\\{" {
        s = $0; sub(/.*[ \t]ff_/, "", s); sub(/[ \t]*=.*/, "", s); cur = s
    }
    cur != "" && /^[ \t]*\.(p\.)?name[ \t]*=[ \t]*"/ {
        s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s)
        if (!(cur in seen)) print cur, s >> lit
        seen[cur] = 1; cur = ""; next
    }
    /^};/ { cur = "" }
' < "$TMP/files"
[ -s "$TMP/literal" ] || { bad "component names found in $SRC"; finish; }
sort -t '	' -k1,1nr "$TMP/templates" 2>/dev/null | cut -f2 | awk '!s[$0]++ { print $0 "p"; print "t" }' > "$TMP/templates.sed"
sort -u "$TMP/literal" > "$TMP/literal.s"

# hwcontext types: the name ffmpeg -hwaccels prints is hw_type_names[] of
# the struct's .type (its .name is the long form, "CUDA")
grep -o 'AV_HWDEVICE_TYPE_[A-Z0-9_]*\] *= *"[^"]*"' "$SRC/libavutil/hwcontext.c" |
    sed 's/\] *= *"/ /; s/"$//' | sort > "$TMP/hwnames"
: > "$TMP/hwmap"
for id in $(awk '$1 == "hwaccels" { print $3 }' "$TMP/comp"); do
    t=$(grep -h -A12 "HWContextType ff_${id} *=" "$SRC"/libavutil/hwcontext*.c 2>/dev/null |
        grep -o 'AV_HWDEVICE_TYPE_[A-Z0-9_]*' | head -n 1)
    n=$(awk -v t="$t" '$1 == t { print $2 }' "$TMP/hwnames")
    [ -n "$n" ] && echo "$id $n" >> "$TMP/hwmap"
done

# "KIND CONFIG NAME" for every public name (a comma list gives several)
awk -v lit="$TMP/literal.s" -v hw="$TMP/hwmap" '
    BEGIN { while ((getline l < lit) > 0) { split(l, a, " "); L[a[1]] = a[2] }
            while ((getline l < hw) > 0) { split(l, a, " "); H[a[1]] = a[2] } }
    { print $1, $2, $3, ($1 == "hwaccels" ? H[$3] : L[$3]) }' "$TMP/comp" > "$TMP/comp.lit"
awk '$4 == "" { print $3 }' "$TMP/comp.lit" | sort -u | sed -n -f "$TMP/templates.sed" |
    awk 'NF == 2' | sort -u > "$TMP/templated"
awk -v tp="$TMP/templated" '
    BEGIN { while ((getline l < tp) > 0) { split(l, a, " "); T[a[1]] = a[2] } }
    { n = $4
      if (n == "" && ($3 in T)) n = T[$3]
      if (n == "") { n = $2; sub(/_(encoder|decoder|muxer|demuxer|outdev|indev|protocol|bsf|filter)$/, "", n); g = "guessed" } else g = ""
      c = split(n, a, ",")
      for (i = 1; i <= c; i++) print $1, $2, a[i], g }' "$TMP/comp.lit" | sort -u > "$TMP/names"
guessed=$(awk '$4 == "guessed" { print $2 }' "$TMP/names" | sort -u | tr '\n' ' ')

# ---------------------------------------------------------------------------
# Our configure result, and what each disabled component needs.
grep -h '^#define CONFIG_[A-Z0-9_]* [01]$' "$CONF/config.h" "$CONF/config_components.h" |
    awk '{ print tolower(substr($2, 8)), $3 }' > "$TMP/state"
awk '{ print $2, 1 }' "$TMP/builtin" >> "$TMP/state"
sort -u -o "$TMP/state" "$TMP/state"
# the external libraries: configure's EXTERNAL_*LIST and HWACCEL_*LIST
awk '/^(EXTERNAL|HWACCEL)_[A-Z_]*LIST="/ { p = 1; sub(/^[^"]*"/, "") }
     p { l = $0; e = sub(/".*/, "", l); n = split(l, w, /[ \t]+/)
         for (i = 1; i <= n; i++) if (w[i] ~ /^[a-z0-9_]+$/) print w[i]
         if (e) p = 0 }' "$SRC/configure" | sort -u > "$TMP/extlibs"
[ -s "$TMP/extlibs" ] || { bad "external library lists found in $SRC/configure"; finish; }
grep -E '^[a-z0-9_]+_(deps|deps_any|select)="[^"]*"' "$SRC/configure" |
    sed -E 's/^([a-z0-9_]+)_(deps|deps_any|select)="([^"]*)".*/\1 \3/' > "$TMP/deps"

# classify MISSING NAMES: for each name of MISSING, the 9.0 components that
# carry it (NAMES: "name config"), each one's state in CONFIGDIR and the
# disabled external libraries it needs, directly or through what it
# depends on or selects (a device type's config is the library itself).
# Prints three lines: "removed NAME...", "libs NAME(LIB,...)...",
# "failed NAME(why)...".
classify() {
    awk -v st="$TMP/state" -v ex="$TMP/extlibs" -v dp="$TMP/deps" -v nm="$2" '
        function closure(c,    q, h, t, x, n, a, i, y, seen, libs) {
            q[1] = c; h = 1; t = 1; seen[c] = 1; libs = ""
            while (h <= t) {
                x = q[h++]
                if ((x in E) && S[x] == "0") libs = libs (libs == "" ? "" : ",") x
                n = split(D[x], a, " ")
                for (i = 1; i <= n; i++) {
                    y = a[i]
                    if (y !~ /^\$/ && !(y in seen)) { seen[y] = 1; q[++t] = y }
                }
            }
            return libs
        }
        BEGIN {
            while ((getline l < st) > 0) { split(l, a, " "); S[a[1]] = a[2] }
            while ((getline l < ex) > 0) E[l] = 1
            while ((getline l < dp) > 0) { n = split(l, a, " "); for (i = 2; i <= n; i++) D[a[1]] = D[a[1]] " " a[i] }
            while ((getline l < nm) > 0) { split(l, a, " "); C[a[1]] = C[a[1]] " " a[2] }
        }
        {
            if (!($1 in C)) { rem = rem " " $1; next }
            n = split(C[$1], cs, " "); on = ""; nolib = ""; libs = ""
            for (i = 1; i <= n; i++) {
                c = cs[i]
                if (S[c] != "0") { on = on (on == "" ? "" : ",") c; continue }
                l = closure(c)
                if (l == "") nolib = nolib (nolib == "" ? "" : ",") c
                else libs = libs (libs == "" ? "" : ",") l
            }
            if (on != "") fl = fl " " $1 "(enabled in CONFIGDIR: " on ")"
            else if (nolib != "") fl = fl " " $1 "(disabled, needs no missing library: " nolib ")"
            else lb = lb " " $1 "(" libs ")"
        }
        END { print "removed" rem; print "libs" lb; print "failed" fl }' "$1"
}

# ---------------------------------------------------------------------------
: > "$TMP/summary"
for kind in encoders decoders muxers demuxers filters iprotocols oprotocols bsfs hwaccels; do
    case $kind in
    iprotocols) label="input protocols" ;;
    oprotocols) label="output protocols" ;;
    bsfs)       label="bitstream filters" ;;
    hwaccels)   label="hwaccels (device types)" ;;
    *)          label=$kind ;;
    esac
    if ! list "$DIST" $kind > "$TMP/dist.$kind" || ! list "$OURS" $kind > "$TMP/ours.$kind"; then
        bad "$label: both lists read (a listing did not succeed cleanly)"
        continue
    fi
    awk -v k=$kind '$1 == k { print $3, $2 }' "$TMP/names" | sort -u > "$TMP/n.$kind"
    nd=$(wc -l < "$TMP/dist.$kind") no=$(wc -l < "$TMP/ours.$kind")
    comm -12 "$TMP/dist.$kind" "$TMP/ours.$kind" > "$TMP/common"
    comm -23 "$TMP/dist.$kind" "$TMP/ours.$kind" > "$TMP/missing"
    echo "== $label: distribution $nd, ours $no, common $(wc -l < "$TMP/common"), missing from ours $(wc -l < "$TMP/missing")"
    if [ "$nd" -eq 0 ] || [ "$no" -eq 0 ]; then
        bad "$label: both lists read (distribution $nd, ours $no)"
        continue
    fi

    # the mapping: enabled in CONFIGDIR, under the computed names, is what
    # ours lists (protocols: each list is part of the enabled ones)
    awk '{ print $2 }' "$TMP/n.$kind" | sort -u | join - "$TMP/state" | awk '$2 == 1 { print $1 }' > "$TMP/on"
    awk '{ print $2, $1 }' "$TMP/n.$kind" | sort | join - "$TMP/on" | awk '{ print $2 }' | sort -u > "$TMP/enabled"
    extra=$(comm -13 "$TMP/enabled" "$TMP/ours.$kind" | tr '\n' ' ')
    case $kind in
    iprotocols|oprotocols) unlisted= ;;
    *) unlisted=$(comm -23 "$TMP/enabled" "$TMP/ours.$kind" | tr '\n' ' ') ;;
    esac
    if [ -z "$extra$unlisted" ]; then
        ok "$label: the $(wc -l < "$TMP/enabled") names enabled in $CONF are what ours lists"
    else
        bad "$label: names enabled in $CONF and those ours lists differ (listed, not enabled: ${extra:-none}; enabled, not listed: ${unlisted:-none})"
    fi

    # each missing name: which 9.0 components carry it, and why they are off
    classify "$TMP/missing" "$TMP/n.$kind" > "$TMP/class"
    removed=$(sed -n 's/^removed//p' "$TMP/class")
    libs=$(sed -n 's/^libs//p' "$TMP/class")
    failed=$(sed -n 's/^failed//p' "$TMP/class" | sed "s|CONFIGDIR|$CONF|g")
    nr=$(echo "$removed" | wc -w) nl=$(echo "$libs" | wc -w) nf=$(echo "$failed" | awk '{ print gsub(/\(/, "") }')
    echo "   removed upstream ($nr):${removed:- none}"
    echo "   external library left out ($nl):${libs:- none}"
    echo "$label $nd $no $(wc -l < "$TMP/common") $nr $nl $nf" >> "$TMP/summary"
    if [ -z "$failed" ]; then
        ok "$label: every name the distribution lists is ours or an exception"
    else
        bad "$label: missing without a reason:$failed"
    fi
done

if [ -n "$guessed" ]; then
    echo "note: public name taken from the configure name (no definition parsed): $guessed"
fi
echo "summary (kind: distribution, ours, common, removed upstream, library left out, missing):"
awk '{ k = $1; for (i = 2; i <= NF - 6; i++) k = k " " $i
       printf "  %-24s %5d %5d %5d %5d %5d %5d\n", k ":", $(NF-5), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF }' "$TMP/summary"
finish
