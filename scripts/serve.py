#!/usr/bin/env python3
"""Serves dist/ on 127.0.0.1 with the right MIME type for .wasm (needed for streaming compile)
and, with --csp, the strict Content-Security-Policy the post must work under.

--port 0 takes a free port. Either way the first line on stdout, `serving DIR on URL`, is
printed once the socket listens, so a caller that reads it knows the port answers (tests and
scripts/serving.sh wait for that line, never for time)."""
import argparse
import functools
import http.server
import os

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
       "img-src 'self' data:")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript"}
    csp = False

    def end_headers(self):
        if self.csp:
            self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if os.environ.get("QUIET") != "1":
            super().log_message(fmt, *args)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="dist")
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
    ap.add_argument("--csp", action="store_true")
    args = ap.parse_args()
    Handler.csp = args.csp
    handler = functools.partial(Handler, directory=args.dir)
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as httpd:
        port = httpd.server_address[1]
        print(f"serving {args.dir} on http://127.0.0.1:{port}/", flush=True)
        httpd.serve_forever()


if __name__ == "__main__":
    main()
