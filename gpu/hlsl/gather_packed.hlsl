// The gather of gather.hlsl for elements narrower than Output's word, in words
// (OUTPUT_BYTES: 4 here, 16 in gather_packed_wide.hlsl): its PER_WORD elements' indices
// resolved and their Input elements loaded through the element's view, packed little-endian,
// one store through Output's word view (the host's, from the schedule's outputBytes). A
// narrow store writes part of a word, which GPUs do as a slower read-modify-write; a 16-byte
// store a thread moves as much as a row gather's. The plan runs it only where Output is written
// densely from an aligned start in whole words (plan/gpu_dispatch.cc, GatherPackedWordBytes):
// word w's elements are w * PER_WORD ..., and every byte of it is one of the call's elements.
// Element sizes with nothing to pack are gather.hlsl.
#ifndef OUTPUT_BYTES
#define OUTPUT_BYTES 4
#endif
#if OUTPUT_BYTES == 16
#define THREAD_ITEMS GS_ITEMS_PER_THREAD_PACKED_WIDE
#else
#define THREAD_ITEMS GS_ITEMS_PER_THREAD_PACKED
#endif
#if ELEMENT_BYTES >= OUTPUT_BYTES
#undef OUTPUT_BYTES
#include "gather.hlsl"
#else
#include "common.hlsli"

#define PER_WORD (OUTPUT_BYTES / ELEMENT_BYTES)
#define WORD_PARTS (OUTPUT_BYTES / 4)  // its 32-bit parts

// Packs element i of the word.
void Pack(inout uint parts[WORD_PARTS], uint i, Element value) {
#if ELEMENT_BYTES == 8
  parts[2 * i] = value.x;
  parts[2 * i + 1] = value.y;
#else
  parts[i / (4 / ELEMENT_BYTES)] |= value << (8 * ELEMENT_BYTES * (i % (4 / ELEMENT_BYTES)));
#endif
}

#ifdef GS_INDEX_QUADS
// The PER_WORD indices from Indices element `index` on, in 16-byte loads (the plan puts `index`
// on one: IndicesInQuads), each as low and high words like LoadIndex's.
void LoadWordIndices(uint index, out uint2 values[PER_WORD]) {
  if (P_INDEX64 != 0) {
    [unroll] for (uint q = 0; q < PER_WORD / 2; ++q) {
      uint4 quad = indexQuads[index / 2 + q];
      values[2 * q] = quad.xy;
      values[2 * q + 1] = quad.zw;
    }
  } else {
    [unroll] for (uint q = 0; q < PER_WORD / 4; ++q) {  // none where PER_WORD is 2: not planned
      uint4 quad = indexQuads[index / 4 + q];
      [unroll] for (uint c = 0; c < 4; ++c) {
        values[4 * q + c] = Index32(quad[c]);
      }
    }
  }
}
#endif

// Word w: its elements gathered and packed (zeros for a bad index, which sets met).
OutputWord GatherWord(uint w, inout bool met) {
  uint parts[WORD_PARTS];
  [unroll] for (uint p = 0; p < WORD_PARTS; ++p) parts[p] = 0;
  uint first = w * PER_WORD;
#ifdef GS_STEPS_INNERMOST
  // The plan runs this variant where the word's elements lie in one run of the innermost
  // walked dim, in blocks of one element, with one index component each: the first is sought,
  // each next one is a stride further.
  UnitOffsets o = SeekUnit(first);
  uint dataStep = LOW(kernel.dataStrides, K_RANK - 1);
  uint indexStep = LOW(kernel.indexStrides, K_RANK - 1);
#ifdef GS_INDEX_QUADS
  uint2 values[PER_WORD];
  LoadWordIndices(o.index, values);
#endif
  [unroll] for (uint i = 0; i < PER_WORD; ++i) {
    uint source;
#ifdef GS_INDEX_QUADS
    if (IndexedOffsetOfValue(o, values[i], source)) {
#else
    if (IndexedOffsetOfOne(o, source)) {
#endif
      Pack(parts, i, LoadInput(source));
    } else {
      met = true;  // zeros, as gather.hlsl
    }
    o.data += dataStep;
    o.index += indexStep;
  }
#else
  // The first element's unit is sought; where the plan says the word's elements lie in one run
  // of the innermost walked dim (blocks of one element), the next ones are a stride further,
  // else each is sought (a division per walked dim).
  UnitOffsets o = SeekUnit(first / K_BLOCK);
  uint innermost = K_RANK - 1;
  [unroll] for (uint i = 0; i < PER_WORD; ++i) {
    uint t = first + i;
    if (i > 0) {
      if (P_STEPS_INNERMOST != 0) {
        o.data += LOW(kernel.dataStrides, innermost);
        o.index += LOW(kernel.indexStrides, innermost);
      } else {
        o = SeekUnit(t / K_BLOCK);
      }
    }
    uint source;
    if (IndexedOffset(o, source)) {
      Pack(parts, i, LoadInput(source + t % K_BLOCK));
    } else {
      met = true;  // zeros, as gather.hlsl
    }
  }
#endif
#if OUTPUT_BYTES == 16
  return uint4(parts[0], parts[1], parts[2], parts[3]);
#else
  return parts[0];
#endif
}

[numthreads(GS_GROUP_THREADS, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint lane : SV_GroupIndex) {
  uint first = FirstItem(id, lane);
  OutputWord words[THREAD_ITEMS];
  bool met = false;
  [unroll] for (uint v = 0; v < THREAD_ITEMS; ++v) {
    words[v] = (OutputWord)0;
    if (ITEM(first, v) < P_THREADS) words[v] = GatherWord(ITEM(first, v), met);
  }
  if (met && P_CHECKED != GS_UNCHECKED) {
    uint previous;
    InterlockedMin(status[GS_STATUS_FIRST_BAD], GS_BAD_INDEX_MET, previous);
  }
  [unroll] for (uint s = 0; s < THREAD_ITEMS; ++s) {
    if (ITEM(first, s) < P_THREADS) StoreOutput(ITEM(first, s), words[s]);
  }
}
#endif
