"""A warm LibreOffice converter: one UNO connection to one soffice, many documents.

Run by Node with Debian's /usr/bin/python3 (it has python3-uno; pyenv's python3 does not).
Node starts soffice itself (so it can kill a hung one) and passes the pipe name.

Protocol: one JSON object per line. stdout first says {"ready": true}; then for each request
{"id", "input", "output", "filter", "infilter"?} on stdin it answers {"id", "ok": true} or
{"id", "ok": false, "error": "..."}. EOF on stdin ends the worker and terminates soffice.
"""
import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def connect(pipe_name, deadline_s):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            return resolver.resolve(url)
        except Exception:  # NoConnectException until soffice listens
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def convert(desktop, req):
    load = [
        prop("Hidden", True),
        prop("ReadOnly", True),
        # MacroExecutionMode 0 = NEVER_EXECUTE; UpdateDocMode 0 = NO_UPDATE: no macros and no
        # refresh of linked content, so a document cannot run code or fetch remote resources.
        prop("MacroExecutionMode", 0),
        prop("UpdateDocMode", 0),
    ]
    if req.get("infilter"):
        load.append(prop("FilterName", req["infilter"]))
        if req.get("infilterOptions"):
            load.append(prop("FilterOptions", req["infilterOptions"]))
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(req["input"]), "_blank", 0, tuple(load))
    if doc is None:
        raise RuntimeError("LibreOffice could not load the document")
    try:
        doc.storeToURL(uno.systemPathToFileUrl(req["output"]), (prop("FilterName", req["filter"]),))
    finally:
        doc.close(True)


def main():
    pipe_name = sys.argv[1]
    # A first start (fresh profile) on a busy 2-core machine was seen past 30 s; a soffice that
    # dies instead is noticed by office-worker.ts long before this gives up.
    ctx = connect(pipe_name, 120.0)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    out = sys.stdout
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        try:
            convert(desktop, req)
            reply = {"id": req["id"], "ok": True}
        except Exception as e:  # report, keep serving: one bad document must not end the worker
            if type(e).__name__ == "DisposedException" or "disposed" in str(e).lower():
                # soffice died under us: that is not the document's fault. Exit without a
                # reply so that Node replaces the worker and converts this document cold.
                sys.exit(3)
            reply = {"id": req["id"], "ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    # stdin closed: Node is stopping this worker. A clean terminate lets soffice remove its
    # pipes and lock files; Node kills it anyway if this does not end it quickly.
    try:
        desktop.terminate()
    except Exception:
        pass


if __name__ == "__main__":
    main()
