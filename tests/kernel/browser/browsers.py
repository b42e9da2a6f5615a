# SPDX-License-Identifier: LGPL-2.1-or-later
"""How the browser group starts each browser: headless, with a fresh
profile, camera permission granted without a prompt, on the page's URL.

  start(name, url, profile, log) -> subprocess.Popen
"""

import json
import os
import subprocess

# Chromium (Debian's package, the /usr/bin/chromium wrapper):
#  --headless=new           the full browser without a window (no X in the VM)
#  --no-sandbox             the VM runs everything as root, and Chromium's
#                           sandbox refuses to start as root; the VM is the
#                           sandbox here
#  --use-fake-ui-for-media-stream
#                           grants getUserMedia as if the user clicked
#                           "Allow" (the real camera: not the fake device)
#  --disable-gpu            no GPU in the VM: software compositing
#  the rest keeps it from reaching out (no network in the VM) or doing
#  first-run work that costs minutes under TCG
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--use-fake-ui-for-media-stream",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--mute-audio",
    "--autoplay-policy=no-user-gesture-required",
]

# Firefox ESR: its own prefs instead of flags (user.js in the profile).
FIREFOX_PREFS = {
    "media.navigator.permission.disabled": True,  # no camera prompt
    "media.navigator.streams.fake": False,
    "media.autoplay.default": 0,
    "browser.shell.checkDefaultBrowser": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.enabled": False,
    "browser.startup.homepage_override.mstone": "ignore",
}


def _chromium(url, profile):
    return ["chromium", *CHROMIUM_FLAGS, "--user-data-dir=" + profile, url]


def _firefox(url, profile):
    with open(os.path.join(profile, "user.js"), "w") as f:
        for k, v in FIREFOX_PREFS.items():
            f.write("user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v)))
    return ["firefox-esr", "--headless", "--no-remote", "--profile", profile, url]


COMMANDS = {"chromium": _chromium, "firefox": _firefox}


def start(name, url, profile, log):
    """Starts browser name on url; its output goes to the file log."""
    os.makedirs(profile, exist_ok=True)
    argv = COMMANDS[name](url, profile)
    with open(log, "w") as out:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
