# shellcheck shell=bash
# Where the time of a scripts/test.sh run went, printed as a table at its
# end (and so in CI's log, .ci/run): a run that grows is seen before it
# passes CI's limit.  Sourced, not run.
#
#   tt_lap LABEL        the wall time since the previous lap (or since the
#                       script started) was spent on LABEL
#   tt_add LABEL SECS   LABEL took SECS, beside the laps (a background job)
#   tt_print DIST=LOG...
#                       the table: the laps and additions, their total, then
#                       each kernel group's duration as meson logged it in
#                       LOG (a "meson test" output), a column a DIST

TT_LABELS=()
TT_SECS=()
TT_LAST=$SECONDS

tt_add() {
	TT_LABELS+=("$1")
	TT_SECS+=("$2")
}

tt_lap() {
	tt_add "$1" $((SECONDS - TT_LAST))
	TT_LAST=$SECONDS
}

# tt_groups LOG: "group seconds" for each kernel test in a meson log
# ("3/24 fgrab:kernel+kernel-bookworm / bookworm/sink-vivid OK 45.12s",
# meson 1.8 and later "3/24 kernel+kernel-forky - fgrab:forky/sink-vivid
# OK 45.12s"; failed and timed-out groups too).
tt_groups() {
	[ -f "$1" ] || return 0
	awk '$1 ~ /^[0-9]+\/[0-9]+$/ && $2 ~ /(^|:)kernel/ && $6 ~ /^[0-9.]+s$/ {
		n = $4; sub(/.*\//, "", n); t = $6; sub(/s$/, "", t); print n, t }' "$1"
}

tt_print() {
	local i total=0 arg
	echo
	echo "time table (wall clock, s; background jobs overlap the rest):"
	for i in "${!TT_LABELS[@]}"; do
		printf '  %-44s %6d\n' "${TT_LABELS[$i]}" "${TT_SECS[$i]}"
		[[ ${TT_LABELS[$i]} == *"(background)"* ]] || total=$((total + TT_SECS[i]))
	done
	printf '  %-44s %6d  (%d min)\n' "total" "$total" $(((total + 30) / 60))
	local cols=() logs=()
	for arg in "$@"; do
		cols+=("${arg%%=*}")
		logs+=("${arg#*=}")
	done
	[ "${#cols[@]}" -gt 0 ] || return 0
	echo "kernel groups (meson's durations, s):"
	{
		for i in "${!logs[@]}"; do
			tt_groups "${logs[$i]}" | sed "s/^/$i /"
		done
	} | awk -v ncol="${#cols[@]}" -v names="${cols[*]}" '
		BEGIN { split(names, name, " ") }
		!($2 in seen) { seen[$2] = 1; order[++n] = $2 }
		{ t[$2, $1] = $3; sum[$1] += $3 }
		END {
			printf "  %-28s", "group"
			for (c = 1; c <= ncol; c++) printf " %9s", name[c]
			printf "\n"
			for (i = 1; i <= n; i++) {
				printf "  %-28s", order[i]
				for (c = 0; c < ncol; c++)
					if ((order[i], c) in t) printf " %9.1f", t[order[i], c]
					else printf " %9s", "-"
				printf "\n"
			}
			printf "  %-28s", "sum"
			for (c = 0; c < ncol; c++) printf " %9.1f", sum[c]
			printf "\n"
		}'
}
