# shellcheck shell=bash
# What the browser groups (scenarios/browser.sh, browser-timers.sh) need
# before a browser starts, sourced after lib.sh.

# browsers_ready BROWSER...: each BROWSER installed (else a loud failure),
# lo up for the page's server on 127.0.0.1 (the VM has no other network),
# LOOP_VERSION set; prints the versions.
browsers_ready() {
	local b versions=""
	for b in "$@"; do
		command -v "$b" >/dev/null || fatal "$b is not installed (tests/kernel/vm.sh install)"
		versions+=", $("$b" --version 2>/dev/null)"
	done
	ip link set lo up 2>/dev/null || busybox ip link set lo up || fatal "cannot bring lo up"
	loopback_version
	info "v4l2loopback $LOOP_VERSION$versions"
}
