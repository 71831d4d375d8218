# test_readme_commands.sh - every command the four READMEs show runs as
# written (the long ones at the reduced size tests/cli/readme_commands.py
# names, or skipped with its reason) and exits 0.
. tests/cli/lib.sh
python3 tests/cli/readme_commands.py . "$SLABSIM" > "$TMP/readme.txt" 2>&1 ||
	fail "README commands: $(grep -A1 '^FAIL' "$TMP/readme.txt")"
tail -1 "$TMP/readme.txt"
# the command list is not empty: the extraction found the READMEs' blocks
[ "$(grep -c '^ok ' "$TMP/readme.txt")" -ge 25 ] ||
	fail "only $(grep -c '^ok ' "$TMP/readme.txt") README commands found to run"
finish
