#!/usr/bin/env node
// Runs a Python script on real MicroPython (the pinned WebAssembly build: a 32-bit VM).
//
//   node tools/micropython/run.mjs [--mount HOSTDIR:/POINT]... [--heap 192k] [--pystack 2048]
//                                  [--chunks] [SCRIPT.py | -]
//
// Each --mount copies HOSTDIR (recursively) into MicroPython's in-memory filesystem at /POINT and
// puts /POINT on sys.path, first mount first. The script (a file, or stdin when "-" or absent)
// then runs as __main__ from /run/<name>. MicroPython's stdout streams to stdout. If the script
// raises, its traceback goes to stderr and the exit status is 1 (SystemExit keeps its code).
//
// --heap is the size of the first GC heap area, in bytes. It is no limit: this build cannot scan
// the wasm stack, so it never collects garbage while a script runs (gc.collect() included) and
// adds a heap area whenever one fills up; it collects only between top-level runs. Hence
// gc.mem_alloc() only grows during a script, and a delta counts every byte allocated.
//
// --chunks measures the LIVE heap. The script is cut at every line that is exactly "#---"; each
// piece runs as its own top-level run, one after the other, in the one __main__ namespace (so
// names carry over; line numbers stay those of the whole script). After each piece this runner
// calls gc.collect() from JavaScript (which only asks for a collection), and the collection
// happens as that top-level call returns, with no C or Python frame alive: only real roots
// (modules, __main__'s names) keep objects. It then reads gc.mem_alloc(), from JavaScript
// again, so nothing is allocated between the collection and the reading, and stores that
// reading in the global LIVE_HEAP (an int) before the next piece runs. Before the first piece,
// LIVE_HEAP is the live heap of the bare VM. A reading includes nothing of the next piece,
// not even its compiled code. A piece that leaves the global AGAIN true runs again, with a
// collection and a reading before each run, until it leaves AGAIN false (AGAIN is False before
// the first piece): a loop of pieces whose length the script finds out as it runs.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const USAGE =
  "usage: run.mjs [--mount HOSTDIR:/POINT]... [--heap BYTES] [--pystack WORDS] [--chunks] " +
  "[SCRIPT.py | -]";
const DEFAULT_HEAP = 192 * 1024; // roughly what MicroPython leaves for the GC heap on an RP2040

function fail(message, code = 2) {
  process.stderr.write(`run.mjs: ${message}\n`);
  process.exit(code);
}

function parseSize(text) {
  const match = /^(\d+)([km]?)$/i.exec(text ?? "");
  if (!match) fail(`bad size ${JSON.stringify(text)} (use e.g. 196608, 192k or 1m)`);
  return Number(match[1]) * { "": 1, k: 1024, m: 1024 * 1024 }[match[2].toLowerCase()];
}

function parseArgs(argv) {
  const opts = { mounts: [], heap: DEFAULT_HEAP, pystack: 2048, chunks: false, script: "-" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--mount") {
      const spec = argv[++i] ?? "";
      const at = spec.lastIndexOf(":");
      const [host, point] = [spec.slice(0, at), spec.slice(at + 1)];
      if (at < 1 || !point.startsWith("/")) fail(`bad --mount ${JSON.stringify(spec)}`);
      if (!fs.statSync(host, { throwIfNoEntry: false })?.isDirectory()) {
        fail(`--mount: ${host} is not a directory`);
      }
      opts.mounts.push({ host, point: path.posix.normalize(point) });
    } else if (arg === "--heap") {
      opts.heap = parseSize(argv[++i]);
    } else if (arg === "--pystack") {
      opts.pystack = parseSize(argv[++i]);
    } else if (arg === "--chunks") {
      opts.chunks = true;
    } else if (arg === "-h" || arg === "--help") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    } else if (arg.startsWith("--") || i !== argv.length - 1) {
      fail(USAGE);
    } else {
      opts.script = arg;
    }
  }
  return opts;
}

function copyTree(FS, host, point) {
  FS.mkdirTree(point);
  for (const entry of fs.readdirSync(host, { withFileTypes: true })) {
    if (entry.name === "__pycache__") continue;
    const from = path.join(host, entry.name);
    const to = path.posix.join(point, entry.name);
    if (entry.isDirectory()) copyTree(FS, from, to);
    else if (entry.isFile()) FS.writeFile(to, fs.readFileSync(from));
  }
}

// MicroPython hands output over a byte at a time; pass it on a line at a time.
function byteSink(stream) {
  let pending = [];
  const flush = () => {
    if (pending.length) stream.write(Buffer.from(pending));
    pending = [];
  };
  const put = (bytes) => {
    for (const byte of bytes) {
      pending.push(byte);
      if (byte === 10 || pending.length >= 4096) flush();
    }
  };
  return { put, flush };
}

const opts = parseArgs(process.argv.slice(2));
const source = fs.readFileSync(opts.script === "-" ? 0 : opts.script);
const name = opts.script === "-" ? "stdin.py" : path.basename(opts.script);
const stdout = byteSink(process.stdout);
const stderr = byteSink(process.stderr);

const mp = await loadMicroPython({
  heapsize: opts.heap,
  pystack: opts.pystack,
  linebuffer: false,
  stdout: stdout.put,
  stderr: stderr.put,
});
for (const { host, point } of opts.mounts) copyTree(mp.FS, host, point);
const scriptPath = `/run/${name}`;
mp.FS.mkdirTree("/run");
mp.FS.writeFile(scriptPath, source);

const points = JSON.stringify(opts.mounts.map((m) => m.point));
mp.runPython(`import sys\nsys.path[:0] = ${points}\ndel sys`);

// The pieces of a --chunks script: each padded with blank lines to its place in the script, so
// a traceback names the line of the whole script.
function chunksOf(text) {
  const lines = text.split("\n");
  const pieces = [];
  let start = 0;
  lines.forEach((line, i) => {
    if (line.trimEnd() === "#---") {
      pieces.push("\n".repeat(start) + lines.slice(start, i).join("\n") + "\n");
      start = i;
    }
  });
  pieces.push("\n".repeat(start) + lines.slice(start).join("\n"));
  return pieces;
}

function runChunks(text) {
  mp.runPython(`__file__ = ${JSON.stringify(scriptPath)}\nLIVE_HEAP = 0\nAGAIN = False`);
  const gc = mp.pyimport("gc");
  const [collect, memAlloc] = [gc.collect, gc.mem_alloc];
  const measure = () => {
    collect(); // sets the pending flag; the collection runs as this call returns to JavaScript
    mp.globals.set("LIVE_HEAP", memAlloc()); // a small int into an existing key: no allocation
  };
  for (const piece of chunksOf(text)) {
    mp.FS.writeFile(scriptPath, piece);
    let again = true;
    while (again) {
      measure();
      mp.runPython(`execfile(${JSON.stringify(scriptPath)}, globals())`);
      again = mp.globals.get("AGAIN") === true; // read before the next collection
      if (again) mp.globals.set("AGAIN", false);
    }
  }
}

let status = 0;
try {
  if (opts.chunks) {
    runChunks(source.toString("utf8"));
  } else {
    const globals = `{"__name__": "__main__", "__file__": ${JSON.stringify(scriptPath)}}`;
    mp.runPython(`execfile(${JSON.stringify(scriptPath)}, ${globals})`);
  }
} catch (error) {
  stdout.flush();
  stderr.flush();
  if (error.name !== "PythonError") {
    fail(`MicroPython crashed: ${error.message}`, 3);
  } else if (error.type === "SystemExit") {
    // Like CPython: sys.exit() and sys.exit(None) succeed, a number is the status, text fails.
    const code = /SystemExit: ?(.*)\n*$/.exec(error.message)?.[1] ?? "";
    status = ["", "None"].includes(code) ? 0 : /^\d+$/.test(code) ? Number(code) : 1;
    if (!/^(\d*|None)$/.test(code)) process.stderr.write(`${code}\n`);
  } else {
    // Drop the frame of the execfile() line above: it is ours, not the script's.
    const traceback = error.message.replace(/^ {2}File "<stdin>", line \d+, in <module>\n/m, "");
    process.stderr.write(traceback.endsWith("\n") ? traceback : traceback + "\n");
    status = 1;
  }
}
stdout.flush();
stderr.flush();
process.exitCode = status;
