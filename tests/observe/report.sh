#!/bin/sh
# report.sh -- `make check` test of the HTML lab report (observe/report.c, issue 17): bad JSON is
# one line with its line and column; the page embeds the JSON so that it cannot end its script
# element; it names nothing on the network. Then headless Chromium (skipped, exit 77, without
# one; CHROMIUM=path picks it) draws tests/observe/sample-stats.json (a kernel with a divergent
# if/else, loops, a 32-way bank conflict, under pdom and sbi) in four views, and the rendered DOM
# must hold the views' numbers and marks; the page must request nothing (Chromium's net log).
set -u
top_builddir=$(cd "${top_builddir:-.}" && pwd)
top_srcdir=$(cd "${top_srcdir:-.}" && pwd)
REPORT=$top_builddir/tests/observe/report_json
[ -x "$REPORT" ] || { echo "report.sh: $REPORT not built" >&2; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-report.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
sample=$top_srcdir/tests/observe/sample-stats.json

# bad JSON: exit 1 and one line naming the place
bad() {
    printf '%s' "$1" >"$tmp/bad.json"
    "$REPORT" "$tmp/bad.json" "$tmp/bad.html" 2>"$tmp/err"
    rc=$?
    want="report_json: $tmp/bad.json:$2"
    [ $rc = 1 ] && [ "$(cat "$tmp/err")" = "$want" ] || fail "bad JSON '$1': exit $rc, '$(cat "$tmp/err")', want '$want'"
}
bad '{"runs": [1, 2,, 3]}' '1:16: expected a value (object, array, string, number, true, false or null)'
bad '{"a": 1,}' '1:9: expected a string key'
bad '{"a" 1}' '1:6: expected '"':'"' after the key'
bad "$(printf '{\n "a": "x\ty"}')" '2:9: control character in a string (escape it)'
bad '{"a": 01}' '1:8: expected '"','"' or '"'}'"''
bad '{"a": "\q"}' '1:9: unknown escape in a string'
bad '[1]' '1:1: the stats must be one JSON object'
bad '{} {}' '1:4: text after the JSON object'
bad '{"a": "x' '1:7: string not closed'
bad '' '1:1: unexpected end of the JSON'

# The JSON inside the page: '<' and U+2028/2029 escaped, so a kernel named "</script>" stays text.
printf '{"schema": "loom-stats/1", "runs": [{"simt": "pdom", "kernels": [{"name": "k</script><!--x\342\200\250"}]}]}' \
    >"$tmp/odd.json"
"$REPORT" "$tmp/odd.json" "$tmp/odd.html" || fail "report of odd.json"
[ "$(grep -c '</script>' "$tmp/odd.html")" = 2 ] || fail "odd.html: '</script>' outside the template's two"
grep -q 'k\\u003c/script>\\u003c!--x\\u2028' "$tmp/odd.html" || fail "odd.html: the kernel name is not escaped"

"$REPORT" "$sample" "$tmp/report.html" || fail "report of $sample"
"$REPORT" - - <"$sample" | cmp -s - "$tmp/report.html" || fail "report through stdin and stdout differs"
# Nothing to fetch: no URL, no src/href/url()/@import, and a content security policy of 'none'.
load='https?:|[^-a-z](src|href|action|srcset) *= *["'"'"'a-z]|url\( *["'"'"']?[^#"'"'"' ]|@import'
grep -Eq "$load" "$tmp/report.html" &&
    fail "the page names something to load: $(grep -Eo ".{0,20}($load).{0,20}" "$tmp/report.html" | head -3)"
grep -q "Content-Security-Policy\" content=\"default-src 'none';" "$tmp/report.html" || fail "no content security policy"
[ "$fails" = 0 ] || exit 1

# ---- drawn by headless Chromium ----
chrome=
for c in ${CHROMIUM:-} chromium chromium-browser google-chrome-stable google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chrome=$(command -v "$c"); break; fi
done
[ -n "$chrome" ] || { echo "report.sh: no headless Chromium (chromium, chromium-browser, google-chrome); skipped"; exit 77; }
# The browser's own background traffic is switched off; any request would fail (no proxy, no DNS).
browse() {
    HOME=$tmp timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
        --no-default-browser-check --disable-background-networking --disable-component-update \
        --disable-sync --disable-extensions --disable-default-apps --user-data-dir="$tmp/profile" \
        --proxy-server=127.0.0.1:9 "--host-resolver-rules=MAP * ~NOTFOUND" "$@" 2>>"$tmp/chrome.log"
}
# view NAME FRAGMENT: the DOM of the report opened at #FRAGMENT, in $tmp/NAME.dom
view() {
    browse --log-net-log="$tmp/$1.net" --dump-dom "file://$tmp/report.html#$2" >"$tmp/$1.raw" ||
        fail "chromium: $(tail -2 "$tmp/chrome.log")"
    # what the script drew, without the script and the JSON (whose text would match too)
    sed '/<script/,/<\/script>/d' "$tmp/$1.raw" >"$tmp/$1.dom"
    grep -q 'data-render-ms="' "$tmp/$1.dom" || fail "$1: the page's script did not finish"
    ! grep -q 'could not be drawn' "$tmp/$1.dom" || fail "$1: $(grep -o 'could not be drawn[^<]*' "$tmp/$1.dom")"
    # requests the page made carry its (opaque) origin; the browser's own say "not an origin"
    python3 - "$tmp/$1.net" <<'EOF' || fail "$1: the page requested something"
import json, sys
d = json.load(open(sys.argv[1]))
start = d['constants']['logEventTypes']['URL_REQUEST_START_JOB']
bad = [e['params'].get('url') for e in d['events']
       if e['type'] == start and e.get('params', {}).get('initiator', 'not an origin') != 'not an origin']
if bad:
    print('requests:', bad)
    sys.exit(1)
EOF
}
# has NAME TEXT WHAT: the DOM of view NAME holds TEXT
has() { grep -qF -- "$2" "$tmp/$1.dom" || fail "$1: $3 (no '$2')"; }

view main ''
has main '<button class="tab on" data-act="kernel" data-i="0">lab(float const*, float*, int)</button>' "kernel tab"
has main '<div class="k">SIMD efficiency</div><div class="v">96.5%</div>' "SIMD efficiency card"
has main '<div class="k">Shared bank conflicts</div><div class="v">248</div>' "bank conflicts card"
has main '<div class="k">Global sectors / request</div><div class="v">4.00</div>' "sectors per request card"
has main '<b class="limiter-name">threads</b>' "occupancy limiter"
has main '<svg class="res"' "residency chart"
has main '<td class="ln">109</td><td class="n exec sel">16</td><td class="n eff">100%</td>' "line 109's executions"
has main '<td class="ln">59</td><td class="n exec sel">8</td><td class="n eff">50%</td>' "line 59's SIMD efficiency"
has main '<td class="n bank">248</td>' "line 131's bank conflicts"
has main '32-way bank conflict</span>' "the bank conflict mark"
has main '<td class="n spr">4.00</td>' "line 47's sectors per request"
has main '<span class="badge div">⋔ divergent ×8</span>' "the divergent branch of line 54"
has main '<span class="badge rcv">⊕ reconverges (line 54)</span>' "the reconvergence of line 70"
has main '<g class="blk divb" data-act="block" data-first="30" data-last="54"' "the CFG's divergent block"
has main '<g class="blk rcvb" data-act="block" data-first="68" data-last="71"' "the CFG's reconvergence block"
[ "$(grep -o '<g class="blk' "$tmp/main.dom" | wc -l)" = 11 ] || fail "main: CFG blocks: $(grep -o '<g class="blk' "$tmp/main.dom" | wc -l), want 11"
[ "$(grep -o 'class="e taken"' "$tmp/main.dom" | wc -l)" = 8 ] || fail "main: CFG taken edges: $(grep -o 'class="e taken"' "$tmp/main.dom" | wc -l), want 8"
has main '<tr class="sel"><th data-policy="pdom">pdom</th><td>680</td><td>96.5%</td>' "pdom's issue slots and SIMD efficiency"
has main '<tr><th data-policy="sbi">sbi</th><td class="best">656</td><td class="best">100.0%</td>' "sbi's issue slots and SIMD efficiency"
has main '<th>Co-issued slots</th>' "the co-issued slots column"
! grep -qF '<th>Warps split</th>' "$tmp/main.dom" || fail "main: a column of zeros only (warps split)"
has main '<canvas id="heatmap" width="' "the lane heatmap"
has main '<b id="stepactive">32</b> of 32 lanes active' "slot 0's active lanes"
[ "$(grep -o '<i class="on">' "$tmp/main.dom" | wc -l)" = 32 ] || fail "main: slot 0's mask is not 32 lanes"

view cuda 'kernel=_Z3labPKfPfi&listing=cu1&metric=eff&warp=1&step=18'
has cuda '<div class="code-list" id="cu1">' "the CUDA listing"
has cuda '<td class="ln">10</td><td class="n exec">24</td><td class="n eff sel">50%</td>' "lab.cu:10's heat"
has cuda '<option value="eff" selected="">SIMD efficiency</option>' "the metric selector"
has cuda '<button class="pill on" data-act="warp" data-i="1">CTA (0,0,0) warp 1</button>' "warp 1"
has cuda '<b id="stepactive">16</b> of 32 lanes active <span class="note">0xaaaaaaaa</span>' "slot 18's mask"
has cuda 'PTX line <a data-act="ptx" data-lines="55">55</a>' "slot 18's line"

view scale 'kernel=_Z5scalePffi&run=1'
has scale '<button class="tab on" data-act="kernel" data-i="1">scale(float*, float, int)</button>' "the second kernel"
has scale '<button class="pill on" data-act="run" data-i="1">sbi</button>' "the sbi run"
has scale 'No CFG in the stats.' "a kernel without a CFG"
has scale 'No warp slots in the stats for this kernel under sbi.' "a kernel without warp slots"
has scale '<div class="k">Global sectors / request</div><div class="v">3.94</div>' "scale's sectors per request"
has scale '<span class="badge div">⋔ divergent ×3</span>' "scale's divergent guard"
has scale '<tr id="p185" class="lab"><td class="ln">185</td>' "scale's PTX text, from the pdom run"

"$REPORT" "$tmp/odd.json" "$tmp/report.html" || fail "report of odd.json"
view odd ''
has odd '>k&lt;/script&gt;&lt;!--x' "a kernel name with markup, as text"
has odd 'No counters for this kernel.' "a kernel with nothing but its name"

"$REPORT" "$sample" "$tmp/report.html" || fail "report of $sample"
browse --hide-scrollbars --window-size=1400,2000 --screenshot="$tmp/report.png" "file://$tmp/report.html" >/dev/null
[ "$(od -An -tx1 -N8 "$tmp/report.png" 2>/dev/null | tr -d ' ')" = 89504e470d0a1a0a ] &&
    [ "$(wc -c <"$tmp/report.png")" -gt 50000 ] || fail "screenshot: no PNG or a blank one"

# ---- end to end: loom run --report (lab.ptx, two SIMT policies), the page against the JSON of
# the same run: the kernel, both policies' issue slots, the limiter, the hottest line's executions
LOOM=${LOOM:-$top_builddir/loom}
lab=$top_srcdir/tests/observe/lab.ptx
"$LOOM" run -q "$lab" --kernel lab --grid 2 --block 128 in:f32:256=iota "out:f32:256>$tmp/lab.out" s32:5 \
    --simt pdom,sbi --stats=json "$tmp/lab.json" --report "$tmp/report.html" || fail "loom run --report"
view e2e ''
python3 - "$tmp/lab.json" >"$tmp/want" <<'EOF' || fail "lab.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["simt"] for r in d["runs"]] == ["pdom", "sbi"], d["runs"]
k = d["runs"][0]["kernels"][0]
print('<button class="tab on" data-act="kernel" data-i="0">%s</button>' % k["demangled"])
print('<b class="limiter-name">%s</b>' % k["occupancy"]["limiter"])
for r in d["runs"]:
    print('data-policy="%s">%s</th>' % (r["simt"], r["simt"]))
    print('>%d</td>' % r["kernels"][0]["simt_stats"]["slots"])
hot = max(k["lines"], key=lambda l: l["exec"])
print('<td class="ln">%d</td><td class="n exec sel">%d</td>' % (hot["line"], hot["exec"]))
EOF
while IFS= read -r want; do has e2e "$want" "the page of loom run --report"; done <"$tmp/want"
"$LOOM" run -q "$lab" --kernel lab --grid 2 --block 128 in:f32:256=iota "out:f32:256>$tmp/never.out" s32:5 \
    --report "$tmp/none/r.html" 2>"$tmp/err"
[ $? = 2 ] && [ "$(cat "$tmp/err")" = "loom run: cannot write the report to '$tmp/none/r.html': No such file or directory" ] &&
    [ ! -e "$tmp/never.out" ] || fail "an unwritable report path: '$(cat "$tmp/err")'"

[ "$fails" = 0 ] && echo "report.sh: all checks passed"
[ "$fails" = 0 ]
