// A small W3C WebDriver client for Firefox ESR through geckodriver: playwright-core drives only
// its own patched Firefox builds, not Debian's firefox-esr. Enough for tests/e2e/consumers:
// sessions, navigation, scripts, elements (also inside shadow roots), clicks and keys.
import { spawn } from 'node:child_process';
import net from 'node:net';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const SHADOW = 'shadow-6066-11e4-a52e-4f735466cecf';
/** WebDriver's key codes for the keys the tests press. */
export const KEYS = { Tab: '\uE004', Enter: '\uE007', ArrowLeft: '\uE012', ArrowRight: '\uE014', Space: '\uE00D' };

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts geckodriver; resolves once it answers /status. */
export async function startGeckodriver(binary = process.env.GECKODRIVER ?? 'geckodriver') {
  const port = await freePort();
  const proc = spawn(binary, ['--port', String(port), '--host', '127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const status = await (await fetch(`${base}/status`)).json();
      if (status.value?.ready !== undefined) break;
    } catch {
      if (proc.exitCode !== null) throw new Error(`geckodriver exited: ${stderr}`);
      if (i > 200) throw new Error(`geckodriver did not answer: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    base,
    stop: () => proc.kill(),
    /** A headless Firefox ESR session; `prefs` are Firefox preferences (javascript.enabled). */
    session: (options) => Session.start(base, options),
  };
}

async function call(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`WebDriver ${method} ${url}: ${json.value?.error}: ${json.value?.message}`);
  return json.value;
}

export class Session {
  static async start(base, { prefs = {}, width = 1280, height = 900 } = {}) {
    const caps = {
      browserName: 'firefox',
      'moz:firefoxOptions': {
        binary: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
        args: ['-headless', `--width=${width}`, `--height=${height}`],
        prefs: { 'ui.systemUsesDarkTheme': 0, ...prefs },
      },
    };
    const { sessionId } = await call('POST', `${base}/session`, { capabilities: { alwaysMatch: caps } });
    const session = new Session(`${base}/session/${sessionId}`);
    await session.post('/timeouts', { script: 30000 });
    return session;
  }

  constructor(url) {
    this.url = url;
  }

  post(path, body = {}) {
    return call('POST', this.url + path, body);
  }

  get(path) {
    return call('GET', this.url + path);
  }

  close() {
    return call('DELETE', this.url);
  }

  goto(url) {
    return this.post('/url', { url });
  }

  /** Runs `fn` (a function, sent as its source) in the page with `args`; returns its result. */
  run(fn, ...args) {
    return this.post('/execute/sync', { script: `return (${fn}).apply(null, arguments)`, args });
  }

  /** Runs an async `fn` in the page; resolves to what its promise resolves to. */
  runAsync(fn, ...args) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve((${fn}).apply(null, Array.prototype.slice.call(arguments, 0, -1))).then(done, (e) => done({ __error: String(e) }));`;
    return this.post('/execute/async', { script, args }).then((value) => {
      if (value && value.__error) throw new Error(value.__error);
      return value;
    });
  }

  /** Waits until `fn` returns a truthy value in the page (polled in the page itself). */
  waitFor(fn, arg = null, timeout = 20000) {
    return this.runAsync(
      (src, arg, timeout) =>
        new Promise((resolve, reject) => {
          const test = new Function('arg', `return (${src})(arg)`);
          const start = performance.now();
          const look = () => {
            let value;
            try {
              value = test(arg);
            } catch {
              // Not there yet (the page is still mounting): look again.
            }
            if (value) return resolve(value);
            if (performance.now() - start > timeout) return reject(new Error('timed out'));
            setTimeout(look, 50);
          };
          look();
        }),
      String(fn),
      arg,
      timeout,
    );
  }

  /** The element a CSS selector finds inside `host`'s shadow root (a WebDriver reference). */
  async inShadow(hostSelector, selector) {
    const host = await this.post('/element', { using: 'css selector', value: hostSelector });
    const shadow = await this.get(`/element/${host[ELEMENT]}/shadow`);
    return this.post(`/shadow/${shadow[SHADOW]}/element`, { using: 'css selector', value: selector });
  }

  /** A real click (WebDriver moves the pointer to the element and clicks it). */
  click(element) {
    return this.post(`/element/${element[ELEMENT]}/click`);
  }

  /** Presses and releases keys, as a keyboard does, in the focused element. */
  press(...keys) {
    const actions = keys.flatMap((k) => [
      { type: 'keyDown', value: KEYS[k] ?? k },
      { type: 'keyUp', value: KEYS[k] ?? k },
    ]);
    return this.post('/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }
}
