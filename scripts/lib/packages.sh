# shellcheck shell=bash
# Installing the Debian packages a script needs, only those missing.
# Sourced (not run) by scripts/test.sh, scripts/demo.sh and tests/kernel/vm.sh,
# so that the three agree on what "installed" means and on how apt-get runs.
#
#   install_packages WHO PACKAGE...
#       Says which of the packages are missing and installs them with apt-get
#       (as root; no recommends, no questions).  Returns 0 when all are
#       installed afterwards; 1 (with a message that names them) when some are
#       missing and this is not root, or apt-get failed; 2 on a system without
#       dpkg-query, where nothing can be checked: the caller decides whether
#       to go on.  WHO starts each message.
#   package_installed PACKAGE
#       Whether dpkg knows the package as installed.

package_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ]
}

install_packages() {
	local who=$1 p missing=()
	shift
	if ! command -v dpkg-query >/dev/null; then
		echo "$who: not a Debian system (no dpkg-query); make sure these are installed: $*" >&2
		return 2
	fi
	for p in "$@"; do
		package_installed "$p" || missing+=("$p")
	done
	if [ "${#missing[@]}" -eq 0 ]; then
		echo "$who: all packages present ($*)" >&2
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "$who: missing packages ${missing[*]}: run as root or install them first" >&2
		return 1
	fi
	echo "$who: installing ${missing[*]}" >&2
	# Another apt or dpkg may be running on the machine: wait for its locks
	# (up to 15 minutes) instead of failing at once.
	if ! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update -q ||
		! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 \
			install -y -q --no-install-recommends "${missing[@]}"; then
		echo "$who: apt-get could not install ${missing[*]}" >&2
		return 1
	fi
}
