// The ONNX Runtime peer's runner: times one one-node model on ONNX Runtime's CPU provider
// (onnxruntime-node) at each thread count, and a plain copy of the same bytes in the same
// process. Written for perf/peers/ort/ort_peer.py, which builds the model and the inputs.
//
//   node run.mjs NODE_MODULES_DIR WORK_DIR
//
// WORK_DIR/manifest.json:
//   {"model": "model.onnx", "node": "op",
//    "inputs": [{"name", "type" (float32, float16, int8, ..., int64), "dims", "file" (raw, C order)}],
//    "output": {"name", "type", "dims"}, "threads": [1, 2], "min_time": s, "max_reps": 15,
//    "copy_bytes": n, "copy_min_time": s, "check_file": "y.bin" or absent}
// Prints one JSON object: {"ort_version", "results": [{"threads", "kernel_s", "reps", "run_s",
// "copy_s", "copy_1_s", "copy_n_s"}]}.
//
// Per thread count: an InferenceSession with intraOpNumThreads n, interOpNumThreads 1,
// sequential execution and the profiler on; one warm-up run, then runs until >= 3 and >=
// min_time seconds (at most max_reps): the suite's timing rule. The time of a run is the
// kernel's own, the profiler's "<node>_kernel_time" event (cat "Node", dur in microseconds),
// not session.run's wall time (feeds, output binding, the JS call), which is kept as run_s.
// The copy baseline: total/2 bytes (copy_bytes) of a Float32Array, TypedArray.set on this
// thread and, for n > 1, split over n threads (n - 1 worker threads on a SharedArrayBuffer);
// the faster of the two, as peers.py takes the faster of numpy's and torch's copies.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const [nodeModules, dir] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeModules), 'noop.js'));
const ort = require('onnxruntime-node');
const ortVersion = require('onnxruntime-node/package.json').version;
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

const ARRAYS = {
  float32: Float32Array, float16: Uint16Array, float64: Float64Array, int8: Int8Array,
  uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array,
  uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};

function count(dims) {
  return dims.reduce((a, b) => a * b, 1);
}

function readTensor({ type, dims, file }) {
  const Ctor = ARRAYS[type];
  const data = new Ctor(count(dims));  // own, aligned buffer; read in chunks (files may pass 2 GiB)
  const bytes = new Uint8Array(data.buffer);
  const fd = fs.openSync(path.join(dir, file), 'r');
  for (let off = 0; off < bytes.length;) {
    const n = fs.readSync(fd, bytes, off, Math.min(1 << 30, bytes.length - off), off);
    if (n <= 0) throw new Error(`${file}: short file`);
    off += n;
  }
  fs.closeSync(fd);
  return new ort.Tensor(type, data, dims);
}

// The suite's timing rule around fn (which returns the seconds to keep, or undefined for its
// own wall time): one warm-up call, then >= 3 calls and >= minTime seconds, at most maxReps.
async function measure(fn, minTime, maxReps) {
  await fn();
  const times = [];
  const start = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - start) / 1e9;
  while (times.length < 3 || (elapsed() < minTime && times.length < maxReps)) {
    const t0 = process.hrtime.bigint();
    const kept = await fn();
    times.push(kept ?? Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return times;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// n threads copying a SharedArrayBuffer's halves: this thread and n - 1 workers, which wait on
// an Atomics generation counter (no message per call).
class Copier {
  constructor(bytes, threads) {
    const n = Math.floor(bytes / 4);
    this.src = new Float32Array(new SharedArrayBuffer(n * 4)).fill(1.0);  // every page written
    this.dst = new Float32Array(new SharedArrayBuffer(n * 4)).fill(0.0);
    this.threads = threads;
    this.ctrl = new Int32Array(new SharedArrayBuffer(8));  // [generation, workers done]
    this.workers = [];
    const slice = (k) => [Math.floor((n * k) / threads), Math.floor((n * (k + 1)) / threads)];
    this.own = slice(0);
    for (let k = 1; k < threads; ++k) {
      this.workers.push(new Worker(`
        const { workerData: w } = require('node:worker_threads');
        const src = new Float32Array(w.src).subarray(w.begin, w.end);
        const dst = new Float32Array(w.dst).subarray(w.begin, w.end);
        const ctrl = new Int32Array(w.ctrl);
        for (let gen = 0;;) {
          Atomics.wait(ctrl, 0, gen);
          gen = Atomics.load(ctrl, 0);
          if (gen < 0) break;
          dst.set(src);
          Atomics.add(ctrl, 1, 1);
          Atomics.notify(ctrl, 1);
        }`, { eval: true, workerData: { src: this.src.buffer, dst: this.dst.buffer, ctrl: this.ctrl.buffer,
                                         begin: slice(k)[0], end: slice(k)[1] } }));
    }
  }

  one() {
    this.dst.set(this.src);
  }

  all() {
    Atomics.store(this.ctrl, 1, 0);
    Atomics.add(this.ctrl, 0, 1);
    Atomics.notify(this.ctrl, 0);
    this.dst.subarray(...this.own).set(this.src.subarray(...this.own));
    const others = this.threads - 1;
    for (let done; (done = Atomics.load(this.ctrl, 1)) < others;) Atomics.wait(this.ctrl, 1, done);
  }

  async close() {
    Atomics.store(this.ctrl, 0, -1);
    Atomics.notify(this.ctrl, 0);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

// The per-run kernel times of a profile file, in run order: the events of the one node.
function kernelTimes(file, node) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  return events.filter((e) => e.cat === 'Node' && e.name === `${node}_kernel_time`).map((e) => e.dur / 1e6);
}

async function runThreads(threads, feeds, model) {
  const prefix = path.join(dir, `profile_t${threads}`);
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',  // a one-node graph: nothing to fuse, nothing to fold
    enableProfiling: true,
    profileFilePrefix: prefix,
  });
  const out = manifest.output;
  const dst = new ort.Tensor(out.type, new ARRAYS[out.type](count(out.dims)), out.dims);
  let first = true;
  const runWall = await measure(async () => {
    await session.run(feeds, { [out.name]: dst });  // into a preallocated output
    if (first && manifest.check_file) {
      fs.writeFileSync(path.join(dir, manifest.check_file), new Uint8Array(dst.data.buffer));
    }
    first = false;
  }, manifest.min_time, manifest.max_reps);
  session.endProfiling();
  await session.release();
  const files = fs.readdirSync(dir).filter((f) => f.startsWith(`profile_t${threads}`) && f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`expected one profile file for ${prefix}, found ${files}`);
  const kernel = kernelTimes(path.join(dir, files[0]), manifest.node);
  if (kernel.length !== runWall.length + 1) {  // the warm-up run has its event too
    throw new Error(`${kernel.length} kernel_time events for ${runWall.length + 1} runs`);
  }
  fs.unlinkSync(path.join(dir, files[0]));
  const kernelS = median(kernel.slice(1));
  if (!(kernelS > 0)) throw new Error('a kernel shorter than the profiler\'s resolution (1 us)');
  return { kernel_s: kernelS, reps: runWall.length, run_s: median(runWall) };
}

const feeds = Object.fromEntries(manifest.inputs.map((i) => [i.name, readTensor(i)]));
const model = fs.readFileSync(path.join(dir, manifest.model));
const results = [];
for (const threads of manifest.threads) {
  const r = await runThreads(threads, feeds, model);
  const copier = new Copier(manifest.copy_bytes, threads);
  const copyMin = manifest.copy_min_time;
  r.copy_1_s = median(await measure(() => copier.one(), copyMin, manifest.max_reps));
  r.copy_n_s = threads > 1 ? median(await measure(() => copier.all(), copyMin, manifest.max_reps)) : r.copy_1_s;
  r.copy_s = Math.min(r.copy_1_s, r.copy_n_s);
  await copier.close();
  results.push({ threads, ...r });
}
process.stdout.write(JSON.stringify({ ort_version: ortVersion, results }) + '\n');
