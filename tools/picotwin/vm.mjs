// One boot of the host twin's Pico: the pinned WebAssembly MicroPython in Node, bridged to the
// twin's driver (tools/picotwin/twin.py) in lockstep.
//
//   node tools/picotwin/vm.mjs FD_IN FD_OUT ONBOARD_DIR [METERED_WASM]
//
// The onboard modules (ONBOARD_DIR: the Pico's machine and time modules, its flash behind a
// VFS, the start) are copied into the VM's own memory filesystem and imported; the start then
// unmounts that filesystem and mounts the twin's flash at "/", as the rp2 port mounts littlefs.
// Python reaches the driver through one synchronous function, twinjs.call(line) -> line: a JSON
// line written to FD_OUT, the driver's answer read back from FD_IN (the VM waits, so the driver
// keeps the clock). With METERED_WASM (picotwin/meter.py's build), twinjs.work() is the Pico's
// time, in ns, of the C functions the interpreter entered since the last call, at the rates
// twinjs.rate() set (machine code's between twinjs.machine(1) and (0)), and turns the meter off
// for the twin's own code (twinjs.on() and twinjs.off() restart and stop it). MicroPython's
// output goes to stdout and stderr; if the start raises (a traceback escaped main.py), the
// traceback goes to stderr and the driver is told.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// The pinned MicroPython, installed for tools/micropython (tools/bootstrap.sh).
const HERE = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = "../micropython/node_modules/@micropython/micropython-webassembly-pyscript";
const { loadMicroPython } = await import(
  pathToFileURL(path.join(HERE, PACKAGE, "micropython.mjs")).href
);

const [fdIn, fdOut] = [Number(process.argv[2]), Number(process.argv[3])];
const onboard = process.argv[4];
const metered = process.argv[5];
let instance = null; // the module's instance, for its meter's globals
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const result = await instantiate(...args);
  instance = result.instance ?? result;
  return result;
};
const HEAP = 192 * 1024; // the first heap area, as tools/micropython/run.mjs: it grows as needed

let pending = Buffer.alloc(0);
function readLine() {
  const chunk = Buffer.alloc(65536);
  for (;;) {
    const nl = pending.indexOf(10);
    if (nl >= 0) {
      const line = pending.subarray(0, nl).toString("utf8");
      pending = pending.subarray(nl + 1);
      return line;
    }
    let n;
    try {
      n = fs.readSync(fdIn, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === "EAGAIN") continue;
      throw error;
    }
    if (n === 0) process.exit(0); // the driver is gone: the power is off
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  }
}

function writeAll(text) {
  const data = Buffer.from(text + "\n", "utf8");
  let off = 0;
  while (off < data.length) off += fs.writeSync(fdOut, data, off, data.length - off);
}

function call(line) {
  writeAll(line);
  return readLine();
}

// The work meter: the Pico's ns of the work since the last reading, at the rates the driver's
// model gives (rate(): ns a function entered, interpreted; ns of one where the Pico runs
// machine code: machine(1) until machine(0)); the counter is an i32 that wraps.
// A read of the clock is a C call on the Pico; on the twin, Python functions (twintime's,
// twinbus.charge) and a call into this module and back, which the meter counts: each crossing
// it saw, in or out, is taken off at half a round trip, as calibrate() measured one (two
// reads in a row: twinbus.calibrate).
let last = 0; // the counter at the last reading
const rates = [0, 0];
let roundTrip = 0; // a read of the clock, beyond the firmware's own work, as the meter counts it
let lastRaw = 0; // what the counter moved before the last reading, crossings included
let halves = 0; // crossings the meter counted since the last reading
let machineCode = false;
let pendingNs = 0;
const meter = () => instance?.exports.twin_work;
const gate = () => instance?.exports.twin_on;
function crossing() {
  if (gate()?.value) halves += 1;
}
function setGate(value) {
  const g = gate();
  if (g) g.value = value;
}
function read() {
  // what the counter moved since the last reading, less the crossings, charged to the code
  // running meanwhile
  const counter = meter();
  if (!counter) return;
  const now = counter.value >>> 0;
  lastRaw = (now - last) >>> 0;
  last = now;
  const spent = Math.max(0, lastRaw - (halves * roundTrip) / 2);
  halves = 0;
  pendingNs += spent * rates[machineCode ? 1 : 0];
}
// Each function Python calls marks the crossing in and the crossing out.
const crossed = (fn) => (...args) => {
  crossing();
  try {
    return fn(...args);
  } finally {
    crossing();
  }
};
const rate = crossed((callNs, machineNs) => {
  rates[0] = callNs;
  rates[1] = machineNs;
});
const work = crossed(() => {
  // the reading, and the meter off: the twin's own code follows (it turns it on again)
  read();
  setGate(0);
  const ns = pendingNs;
  pendingNs = 0;
  return ns;
});
const calibrate = crossed(() => {
  // called right after two reads of the clock in a row: the last moved by one round trip
  roundTrip = lastRaw;
  return roundTrip;
});
const machine = crossed((on) => {
  read();
  machineCode = Boolean(on);
});
const off = crossed(() => setGate(0));
const on = crossed(() => setGate(1));

const out = (stream) => (bytes) => stream.write(Buffer.from(bytes));
const mp = await loadMicroPython({
  heapsize: HEAP,
  ...(metered ? { url: metered } : {}),
  pystack: 2048,
  linebuffer: false,
  stdout: out(process.stdout),
  stderr: out(process.stderr),
});
mp.registerJsModule("twinjs", { call, work, off, on, rate, calibrate, machine });
mp.FS.mkdirTree("/twin");
for (const name of fs.readdirSync(onboard)) {
  if (name.endsWith(".py")) mp.FS.writeFile(`/twin/${name}`, fs.readFileSync(path.join(onboard, name)));
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/twin')\nimport twinstart\ntwinstart.start()");
} catch (error) {
  // twinstart reports what escaped main.py itself; this is the VM failing under it
  const text = error.name === "PythonError" ? error.message : `MicroPython crashed: ${error.message}`;
  process.stderr.write(text.endsWith("\n") ? text : text + "\n");
  writeAll(JSON.stringify({ op: "exit", error: text, wdt: null }));
}
