# shellcheck shell=bash
# The names of the tests in `meson test --list` output, one a line, for
# scripts/test.sh and tests/dist/run.sh.  Sourced, not run.
#
#   meson test -C BUILD --list ... | test_names
#       meson before 1.8 lists "fgrab:SUITES / NAME", later ones
#       "SUITES - fgrab:NAME" (Debian forky); both give NAME.
test_names() {
	sed -n -e 's|^fgrab:[^ ]* / ||p' -e 's|^[^ ]* - fgrab:||p'
}
