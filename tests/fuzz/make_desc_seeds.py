#!/usr/bin/env python3
"""Writes seeds for fuzz_desc_compiler that decode to large descs, one per large GPU kernel and
scatter path (GatherLarge, the large packed gathers with and without 16-byte index loads, claims,
line groups), which random bytes seldom reach:
python3 tests/fuzz/make_desc_seeds.py tests/fuzz/corpus/desc_compiler

It mirrors the order in which desc_compiler_fuzz.cc reads its input (FuzzedDataProvider takes
integers from the end of the data, most significant byte first): change both together.
"""
import hashlib, sys, os
class Enc:
    def __init__(self): self.seq = []
    def u8(self, v): self.seq.append(v & 255)
    def small(self, v, limit):
        if v <= limit and v < 200: self.u8(v); return
        e = v.bit_length() - 1
        assert v == 1 << e and e <= 12, v
        self.u8(200 + ((e - 200 % 13) % 13))
    def tensor(self, dtype, sizes):
        self.small(dtype, 11)
        self.u8(200)                      # new sizes
        self.small(len(sizes), 9)
        for s in sizes: self.small(s, 5)
        self.u8(0)                        # no strides
        self.u8(2); self.u8(0)            # total bytes: the view's exactly
    def data(self): return bytes(reversed(self.seq))

F32, F16, I64, I8 = 1, 2, 3, 6
def op(kind, tensors, axis=0, index_dims=0, input_dims=0, indices_dims=0, batch=0, reduction=0,
       checked=1, in_place=None, window=200, offsets=(0, 0, 0, 0)):
    e = Enc()
    e.u8(kind)
    for v in (axis, index_dims, input_dims, indices_dims, batch): e.small(v, 8)
    e.small(reduction, 5)
    for t in tensors: e.tensor(*t)
    e.u8(0)                               # no null pointers
    e.u8(checked)
    if in_place is not None: e.u8(in_place)
    e.u8(window)
    for at in offsets: e.u8(at)           # 0: the tensor at its buffer's start; 232: 40 bytes in
    return e.data()

big = [4096, 256]
seeds = {
  'gather_elements_f32_axis0_large': op(1, [(F32, [4096, 4096]), (I64, [4096, 4096]), (F32, []), (F32, [4096, 4096])], axis=0),
  'gather_elements_f32_axis1_large': op(1, [(F32, big), (I64, big), (F32, []), (F32, big)], axis=1),
  'gather_elements_i8_axis1_large': op(1, [(I8, big), (I64, big), (I8, []), (I8, big)], axis=1, checked=0),
  'gather_elements_i8_axis1_large_indices_at_40': op(1, [(I8, big), (I64, big), (I8, []), (I8, big)], axis=1,
                                                  offsets=(0, 232, 0, 0)),
  'gather_elements_f16_axis0_large': op(1, [(F16, big), (I64, big), (F16, []), (F16, big)], axis=0),
  'gather_nd_i8_pairs_large': op(2, [(I8, [1, 2048, 2048]), (I64, [256, 4096, 2]), (I8, []), (I8, [1, 256, 4096])],
                                 input_dims=2, indices_dims=3),
  'scatter_nd_rows_large': op(5, [(F32, big), (I64, [4096, 1]), (F32, big), (F32, big)], input_dims=2,
                              indices_dims=2, in_place=1),
  'scatter_elements_claims': op(4, [(F32, big), (I64, big), (F32, big), (F32, big)], axis=0, in_place=0),
  'scatter_elements_axis0_large': op(4, [(F32, [4096, 4096]), (I64, [4096, 4096]), (F32, [4096, 4096]), (F32, [4096, 4096])], axis=0, in_place=0),
}
out = sys.argv[1]
for name, d in seeds.items():
    path = os.path.join(out, hashlib.sha1(d).hexdigest())
    open(path, 'wb').write(d)
    print(name, os.path.basename(path), len(d))
