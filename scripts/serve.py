#!/usr/bin/env python3
"""Serves dist/ on 127.0.0.1 with the right MIME type for .wasm (needed for streaming compile)
and, with --csp, the strict Content-Security-Policy the post must work under. With --gzip, text
and wasm go out gzip-compressed to a browser that accepts it, as the hosts of the post and the
docs sites send them (make bench counts the widget's transfer gzipped too; its Lighthouse run is
served so). Without it nothing is compressed: tests that count a download's bytes see the files'.

--port 0 takes a free port. Either way the first line on stdout, `serving DIR on URL`, is
printed once the socket listens, so a caller that reads it knows the port answers (tests and
scripts/serving.sh wait for that line, never for time)."""
import argparse
import functools
import gzip
import http.server
import io
import os

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
       "img-src 'self' data:")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript"}
    csp = False
    compress = False
    COMPRESSED = (".html", ".js", ".mjs", ".css", ".wasm", ".json", ".svg", ".yaml", ".txt", ".md")
    _gzipped = {}

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # its redirect to DIR/
            path = os.path.join(path, "index.html")
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.compress and accepts and path.endswith(self.COMPRESSED) and os.path.isfile(path)):
            return super().send_head()
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size)
        body = self._gzipped.get(key)
        if body is None:
            with open(path, "rb") as f:
                body = self._gzipped[key] = gzip.compress(f.read(), 9)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

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
    ap.add_argument("--gzip", action="store_true")
    args = ap.parse_args()
    Handler.csp = args.csp
    Handler.compress = args.gzip
    handler = functools.partial(Handler, directory=args.dir)
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as httpd:
        port = httpd.server_address[1]
        print(f"serving {args.dir} on http://127.0.0.1:{port}/", flush=True)
        httpd.serve_forever()


if __name__ == "__main__":
    main()
