# test_api_ref.sh - policies/API.md lists every function, macro, structure,
# type and extern of the headers a policy module may include (the
# Makefile's API_HDRS), as tools/api_ref.py generates it from their comments;
# and the generator sees a function added to a header.
. tests/cli/lib.sh
python3 tools/api_ref.py --check . > "$TMP/out" 2>&1 ||
	fail "policies/API.md is out of date (run tools/api_ref.py): $(head -5 "$TMP/out")"
# a copy of the tree with one more function in a header: --check must fail
mkdir -p "$TMP/tree"
cp -r Makefile sim policies "$TMP/tree/"
printf '\n/* A function nobody documented in API.md. */\nint sb_new_thing(int x);\n' \
	>> "$TMP/tree/policies/slab_blocks.h"
python3 tools/api_ref.py --check "$TMP/tree" > "$TMP/out2" 2>&1 &&
	fail "a new function in slab_blocks.h went unnoticed"
grep -q "missing from policies/API.md: int sb_new_thing(int x)" "$TMP/out2" ||
	fail "the check did not name the new function: $(head -3 "$TMP/out2")"
# what a module uses most is there, with its one line
for f in sb_get_objects hw_spin_lock cpu_sync cpu_charge housekeeping_touch machine_costs \
	 slab_obj_access alloc_pages_node list_add kmem_cache_create; do
	grep -q "^- \`[^\`]*\\b$f(" policies/API.md || fail "API.md does not list $f"
done
grep -q "^## The ordering rule" policies/API.md || fail "API.md has no ordering rule"
grep -q "^## Delayed work: housekeeping" policies/API.md || fail "API.md has no housekeeping example"
finish
