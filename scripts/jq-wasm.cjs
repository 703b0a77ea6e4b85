// esbuild plugin for jq-wasm 3.0.0-jq-1.8.2 (pinned; the build fails here if a line is not found).
// The engine runs in a worker thread (src/terminal/jq-worker.ts), and a filter's first try on the
// main thread (src/terminal/jq-local.ts); they need things the package does not offer:
// - A memory bound of 1 GiB (cli.md §3). jq-wasm caps jq's heap at 256 MiB twice: the module's
//   memory section declares a maximum of 4096 pages, and the glue's getHeapMax returns the same.
//   Both are raised to 1 GiB: the binary is written to dist/jq.wasm with a maximum of 16384
//   pages, and getHeapMax returns 1 GiB. Past it, jq's allocation fails and the engine aborts,
//   which the worker reports as a filter that needs more memory.
// - Output as it comes, not one string at the end: the glue collects jq's stdout and stderr in
//   sinks that double without bound (`range(1e9)` ended in a V8 fatal error). The worker puts its
//   own sinks in their place (globalThis.__wsctlJq), which take stdout a block at a time and pass
//   it on in chunks, and keep only the end of stderr.
// - The document as bytes, transferred from the main thread, not a string copied into the worker,
//   and read by jq from a file, not from a device that gives one byte per call; on the main thread,
//   its text, encoded into jq's own buffer a block at a time.
// - On the main thread: a smaller memory bound (the hooks' heapMax; past it the filter moves to
//   the worker), the glue's error printer replaced, so that an engine that aborts prints nothing
//   of its own, a value that the stdout sink throws to stop jq let through, and jq's random bytes
//   from the hooks (a speed trick: src/tricks/registry.ts).
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const MAX_PAGES = 16384; // 1 GiB of 64 KiB pages
const PACKAGE_PAGES = 4096;

const PATCHES = [
  ['var getHeapMax = () => 268435456;', `var getHeapMax = () => globalThis.__wsctlJq?.heapMax ?? ${MAX_PAGES * 65536};`],
  ['const stdoutSink = createByteSink(1024);', 'const stdoutSink = globalThis.__wsctlJq?.stdout ?? createByteSink(1024);'],
  ['const stderrSink = createByteSink(256);', 'const stderrSink = globalThis.__wsctlJq?.stderr ?? createByteSink(256);'],
  ['stdinBuffer = toByteArray(jsonString);', 'stdinBuffer = globalThis.__wsctlJq?.input ?? toByteArray(jsonString);'],
  ['console.error(message);', '(globalThis.__wsctlJq?.printErr ?? console.error)(message);'],
  // jq asks for random bytes as it starts; WebCrypto, which the glue fills them from, takes ~15 ms to load.
  [
    'var initRandomFill = () => (view) => (crypto.getRandomValues(view), 0);',
    'var initRandomFill = () => globalThis.__wsctlJq?.random ?? ((view) => (crypto.getRandomValues(view), 0));',
  ],
  // The document in blocks: the /dev/stdin device hands it over one byte per call (1.4 million
  // calls for 10,000 keys). Bytes become a file, which takes them without a copy; a text (the
  // hooks' read) a device that encodes it into jq's own buffer a block at a time, so that it is
  // never held encoded whole. Either has the device's name (jq's messages name it), and goes once
  // jq is done.
  [
    '          const args = [...flags, query, STDIN_PATH];\n          try {\n            return executeJq(args);\n          } finally {\n',
    '          const hooks = globalThis.__wsctlJq;\n          if (hooks) {\n            FS.unlink(STDIN_PATH);\n            if (hooks.read) {\n              const device = FS.makedev(250, 0);\n              FS.registerDevice(device, {\n                open(stream) {\n                  stream.seekable = false;\n                },\n                read: (stream, buffer, offset, length) => hooks.read(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length)),\n              });\n              FS.mkdev(STDIN_PATH, 292, device);\n            } else FS.writeFile(STDIN_PATH, stdinBuffer, { canOwn: true });\n          }\n          const args = [...flags, query, STDIN_PATH];\n          try {\n            return executeJq(args);\n          } finally {\n            if (hooks) {\n              try {\n                FS.unlink(STDIN_PATH);\n                FS.writeFile(STDIN_PATH, new Uint8Array(0));\n              } catch {}\n            }\n',
  ],
  // node:fs/promises reads the binary when none is given, which wsctl always gives: loaded then, not
  // with the glue (it loads fs streams and readline, 1-2 ms, on the main thread's first try too).
  [
    'var import_promises = require("fs/promises");',
    'var import_promises = { readFile: (...args) => require("fs/promises").readFile(...args) };',
  ],
  // jq's stdout to the hooks' sink a block at a time, not a call per byte: 70,000 calls for the ids
  // of 10,000 keys, hot enough for V8 to bring in its optimising compiler (2-3 MiB of its code).
  [
    '          }, write(stream, buffer, offset, length, pos) {\n            for (var i = 0; i < length; i++) {\n',
    '          }, write(stream, buffer, offset, length, pos) {\n            const sink = name === "stdout" ? globalThis.__wsctlJq?.stdout : undefined;\n            if (sink) {\n              try {\n                sink.write(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));\n              } catch (e) {\n                if (e === globalThis.__wsctlJq.stop) throw e;\n                throw new FS.ErrnoError(29);\n              }\n              return length;\n            }\n            for (var i = 0; i < length; i++) {\n',
  ],
  // The device turns any error of the sink into EIO, which jq would go on past.
  [
    'output(buffer[offset + i]);\n              } catch (e) {\n                throw new FS.ErrnoError(29);',
    'output(buffer[offset + i]);\n              } catch (e) {\n                if (e === globalThis.__wsctlJq?.stop) throw e;\n                throw new FS.ErrnoError(29);',
  ],
];

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function toLeb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/** The binary's one memory: where its section starts and ends, and its minimum and maximum in pages. */
function memorySection(wasm, path) {
  const fail = (why) => {
    throw new Error(`jq-wasm changed: ${why} in ${path}; re-check scripts/jq-wasm.cjs`);
  };
  if (!wasm.subarray(0, 4).equals(Buffer.from('\0asm'))) fail('not a WebAssembly binary');
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = leb(wasm, at + 1);
    if (id === 5) {
      const [count, a] = leb(wasm, body);
      const [flags, b] = leb(wasm, a);
      const [min, c] = leb(wasm, b);
      if (count !== 1 || flags !== 1) fail('expected one 32-bit memory with a maximum');
      const [max, end] = leb(wasm, c);
      if (end !== body + size) fail('expected nothing after the memory limits');
      return { start: at, end, min, max };
    }
    at = body + size;
  }
  return fail('no memory section');
}

/** The binary with its one memory's maximum raised from PACKAGE_PAGES to MAX_PAGES. */
function raiseMemoryMaximum(wasm, path) {
  const { start, end, min, max } = memorySection(wasm, path);
  if (max !== PACKAGE_PAGES)
    throw new Error(`jq-wasm changed: expected a memory maximum of ${PACKAGE_PAGES} pages in ${path}; re-check scripts/jq-wasm.cjs`);
  const section = [...toLeb(1), ...toLeb(1), ...toLeb(min), ...toLeb(MAX_PAGES)];
  return Buffer.concat([wasm.subarray(0, start), Buffer.from([5, ...toLeb(section.length), ...section]), wasm.subarray(end)]);
}

module.exports = (outdir) => ({
  name: 'jq-wasm',
  setup(build) {
    build.onLoad({ filter: /jq-wasm[\\/]dist[\\/]index\.cjs$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const [from, to] of PATCHES) {
        if (source.split(from).length !== 2)
          throw new Error(`jq-wasm changed: expected one '${from}' in ${args.path}; re-check scripts/jq-wasm.cjs`);
        source = source.replace(from, to);
      }
      const wasmPath = join(args.path, '..', 'build', 'jq.wasm');
      mkdirSync(outdir, { recursive: true });
      writeFileSync(join(outdir, 'jq.wasm'), raiseMemoryMaximum(readFileSync(wasmPath), wasmPath));
      return { contents: source, loader: 'js' };
    });
  },
});

// For test/speed.test.ts, which checks the pinned package against them (RELIANCES in src/tricks/registry.ts).
Object.assign(module.exports, { MAX_PAGES, PACKAGE_PAGES, PATCHES, memorySection });
