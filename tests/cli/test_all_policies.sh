# test_all_policies.sh - every policy (SLUB as of 2.6.24, 2.6.25, 2.6.26, 3.1, 6.18, 7.0 and
# 3.2) on every machine runs a small hackbench and a reduced slab_test to
# the end: exit 0, "invariants: ok", every message's skb allocated and freed,
# 60 slab_test results (test 3 has two series); thread-mode hackbench on each
# machine for one of them in turn.
# A run that hangs fails after TIMEOUT seconds.
. tests/cli/lib.sh
CONFIGS="slab|slub|slub kernel=2.6.24|slub kernel=2.6.26|slub kernel=3.1|slub kernel=3.2|slub kernel=6.18|slub kernel=7.0|slqb|magazine"
MACHINES=$("$SLABSIM" list machines | awk '{print $1}')
[ "$(echo $MACHINES | wc -w)" -ge 9 ] || fail "list machines: only $(echo $MACHINES)"
# a new policy must be added here
for p in $("$SLABSIM" list policies | awk '{print $1}'); do
	echo "|$CONFIGS|" | grep -q "|$p[| ]" || fail "policy $p is not in CONFIGS"
done
HB='hackbench 2 process 5'	# 2 groups x 20 x 20 receivers x 5 = 4000 messages
ST='slab_test run=31 count=30 max_size=4096'
TIMEOUT=60
if [ -n "${SLABSIM_SANITIZED:-}" ]; then	# sanitizer builds: fewer objects, more time
	ST='slab_test run=31 count=4 max_size=4096'
	TIMEOUT=600
fi
IFS='|'
set -- $CONFIGS	# one positional parameter per configuration
unset IFS
i=0
for m in $MACHINES; do
	j=0
	for cfg in "$@"; do
		p=${cfg%% *}
		args=${cfg#"$p"}	# NAME=VALUE words, split below
		# shellcheck disable=SC2086
		expect_exit 0 "invariants: ok" timeout $TIMEOUT "$SLABSIM" run -m "$m" -p "$p" \
			-w "$HB" $args --json "$TMP/$m.$j.hb.json"
		# shellcheck disable=SC2086
		expect_exit 0 "invariants: ok" timeout $TIMEOUT "$SLABSIM" run -m "$m" -p "$p" \
			-w "$ST" $args --json "$TMP/$m.$j.st.json"
		if [ $((i % $#)) -eq "$j" ]; then
			# shellcheck disable=SC2086
			expect_exit 0 "invariants: ok" timeout $TIMEOUT "$SLABSIM" run -m "$m" -p "$p" \
				-w 'hackbench 2 thread 5' $args --json "$TMP/$m.$j.ht.json"
		fi
		j=$((j + 1))
	done
	i=$((i + 1))
done
python3 - "$TMP" "$CONFIGS" <<'PY' || fail "a run's JSON (see above)"
import glob, json, os, sys
configs = sys.argv[2].split("|")
bad = []
files = sorted(glob.glob(sys.argv[1] + "/*.json"))
for f in files:
    m, j, kind, _ = os.path.basename(f).rsplit(".", 3)
    d = json.load(open(f))
    policy, *args = configs[int(j)].split()
    kernel = args[0].split("=")[1] if args else "2.6.25"
    what = f"{m} {configs[int(j)]} {kind}"
    if d["invariants"] != "ok" or d["machine"]["name"] != m or d["policy"]["name"] != policy \
            or d["kernel"]["params"]["kernel"] != kernel:
        bad.append(f"{what}: {d['invariants']}, {d['machine']['name']} {d['policy']['name']} "
                   f"kernel={d['kernel']['params']['kernel']}")
    if kind in ("hb", "ht"):
        skb = [c for c in d["caches"] if c["name"] == "skbuff_head_cache"][0]
        if not (d["result"]["messages"] == skb["allocs"] == skb["frees"] == 4000):
            bad.append(f"{what}: {d['result']['messages']} messages, skbuff_head_cache "
                       f"{skb['allocs']} allocs {skb['frees']} frees")
    elif len(d["result"]["tests"]) != 10 * 6 or \
            sum(c["allocs"] for c in d["caches"]) < d["machine"]["cpus"] * 10:
        bad.append(f"{what}: {len(d['result']['tests'])} results, "
                   f"{sum(c['allocs'] for c in d['caches'])} allocations")
if len(files) < 9 * (2 * len(configs) + 1):
    bad.append(f"only {len(files)} JSON files")
for b in bad:
    print("false:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
finish
