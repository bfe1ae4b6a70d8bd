#!/usr/bin/python3
"""check-report: opens a report page in headless Chromium and checks that it rendered.

  check_report.py PAGE.html --screenshot OUT.png [--expect-plots N]

Drives Debian's `chromium` through the DevTools protocol on a pipe (--remote-debugging-pipe:
commands on fd 3, replies on fd 4, NUL-terminated JSON), so no port and no network. Passes
when every <img class="plot"> decoded (complete, natural width > 0), the page's data-plots
count matches them (and N when given), and nothing logged an error: no exception, no console
error, no failed load. Keeps a full-page screenshot. Exit status 0 pass, 1 fail.
"""

import argparse
import base64
import json
import os
import select
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 60
IMAGES = ("JSON.stringify({plots: Number(document.body.dataset.plots),"
          " images: Array.from(document.querySelectorAll('img.plot')).map(i =>"
          " ({alt: i.alt, complete: i.complete, width: i.naturalWidth, height: i.naturalHeight}))})")


class Browser:
    """A headless Chromium and one page session on the DevTools pipe."""

    def __init__(self, chromium):
        self.profile = tempfile.TemporaryDirectory(prefix="gs-report-chromium-")
        # Chromium's own log (a file, not a pipe nobody drains): shown if it dies.
        self.log = tempfile.TemporaryFile()
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def wire_pipe():  # the child's fd 3 reads commands, fd 4 writes replies
            # Through fresh copies first, in case either pipe end already is fd 3 or 4.
            read_end, write_end = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        # No /dev/shm in some containers and chroots: --disable-dev-shm-usage uses /tmp instead.
        command = [chromium, "--headless", "--remote-debugging-pipe", "--disable-gpu",
                   "--disable-dev-shm-usage",
                   "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                   "--user-data-dir=" + self.profile.name, "--window-size=1280,1000"]
        if os.geteuid() == 0:
            command.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.process = subprocess.Popen(command + ["about:blank"], preexec_fn=wire_pipe,
                                        pass_fds=(3, 4, to_child_r, from_child_w),
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        try:
            os.write(self.to_child, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise RuntimeError("Chromium is gone: %s" % self.chromium_log()) from None
        reply = self.wait(lambda m: m.get("id") == self.next_id)
        if "error" in reply:
            raise RuntimeError("%s: %s" % (method, reply["error"]))
        return reply.get("result", {})

    def wait(self, wanted):
        """Reads messages until one satisfies `wanted`; keeps the events seen on the way."""
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "method" in message:
                    self.events.append(message)
                if wanted(message):
                    return message
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_child], [], [], left)[0]:
                raise RuntimeError("Chromium did not answer within %d s" % TIMEOUT_S)
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe: %s" % self.chromium_log())
            self.buffer += chunk

    def chromium_log(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def open(self, url):
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        pages = [t["targetId"] for t in targets if t["type"] == "page"]
        if not pages:  # the first tab may not exist yet: open one
            pages = [self.send("Target.createTarget", {"url": "about:blank"},
                               session=False)["targetId"]]
        self.session = self.send("Target.attachToTarget", {"targetId": pages[0], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(domain + ".enable")
        self.send("Page.navigate", {"url": url})
        self.wait(lambda m: m.get("method") == "Page.loadEventFired")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError("evaluate: %s" % result["exceptionDetails"])
        return result["result"]["value"]

    def screenshot(self, path):
        size = self.send("Page.getLayoutMetrics")["cssContentSize"]
        shot = self.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def errors(self):
        """What the page logged as an error: exceptions, console errors, failed loads."""
        found = []
        for e in self.events:
            method, params = e["method"], e.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append("exception: %s" % params["exceptionDetails"].get("text"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console.%s: %s" % (params["type"], [a.get("value") for a in params["args"]]))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append("log: %s %s" % (params["entry"]["text"], params["entry"].get("url", "")))
        return found

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except RuntimeError:
            pass  # already gone
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_child)
        os.close(self.from_child)
        self.log.close()
        self.profile.cleanup()


def check(page, screenshot, expect_plots=None, chromium="chromium"):
    """Returns the list of failures (empty: the page passed)."""
    browser = Browser(chromium)
    try:
        browser.open("file://" + os.path.abspath(page))
        state = json.loads(browser.evaluate(IMAGES))
        browser.screenshot(screenshot)
        failures = browser.errors()
    finally:
        browser.close()
    images = state["images"]
    for image in images:
        if not image["complete"] or image["width"] == 0 or image["height"] == 0:
            failures.append("plot not rendered: %s" % image["alt"])
    if state["plots"] != len(images):
        failures.append("the page says %s plots but holds %d" % (state["plots"], len(images)))
    if expect_plots is not None and len(images) != expect_plots:
        failures.append("%d plots, expected %d" % (len(images), expect_plots))
    print("check-report: %d plot(s) rendered of %d; screenshot %s"
          % (sum(1 for i in images if i["complete"] and i["width"] > 0), len(images), screenshot))
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--expect-plots", type=int)
    parser.add_argument("--chromium", default="chromium")
    args = parser.parse_args(argv)
    try:
        failures = check(args.page, args.screenshot, args.expect_plots, args.chromium)
    except (OSError, RuntimeError) as e:  # no chromium, or it died or hung
        failures = ["could not check the page in %s: %s" % (args.chromium, e)]
    for f in failures:
        print("check-report: FAIL: %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
