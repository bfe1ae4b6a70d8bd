// The D3D12 API, from whichever headers this platform has, and a minimal COM pointer.
// Everything in gpu/d3d12 except platform_*.cc uses only what both Microsoft's headers
// (Windows, or DirectX-Headers for the compile check) and vkd3d's headers declare.
#pragma once

// No min and max macros from the Windows headers: they break the standard headers included after.
#ifndef NOMINMAX
#define NOMINMAX
#endif
#if defined(_WIN32) || defined(GS_D3D12_DIRECTX_HEADERS)
#if !defined(_WIN32)
#include <wsl/winadapter.h>  // DirectX-Headers' Windows types for a non-Windows compiler
#endif
#include <directx/d3d12.h>
#if defined(_WIN32) && !defined(_MSC_VER)
#include <dxguids/dxguids.h>  // mingw-w64: the IIDs __uuidof finds (MSVC reads them from d3d12.h)
#endif
#else
// vkd3d 1.2: without explicit aggregate returns, GetCPUDescriptorHandleForHeapStart returns
// its struct the Windows way in C++ and the call crashes inside libvkd3d.
#define WIDL_EXPLICIT_AGGREGATE_RETURNS
#include <vkd3d_windows.h>  // first: the Windows types, and no <windows.h> wanted after it
#include <vkd3d_d3d12.h>
#endif

#include <utility>

namespace gs::d3d12 {

// Owns one COM reference.
template <typename T>
class ComPtr {
 public:
  ComPtr() = default;
  ComPtr(const ComPtr& other) : p_(other.p_) {
    if (p_ != nullptr) p_->AddRef();
  }
  ComPtr(ComPtr&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  ComPtr& operator=(ComPtr other) noexcept {
    std::swap(p_, other.p_);
    return *this;
  }
  ~ComPtr() {
    if (p_ != nullptr) p_->Release();
  }

  // Takes a new reference to an object someone else owns.
  static ComPtr Share(T* p) {
    ComPtr result;
    result.p_ = p;
    if (p != nullptr) p->AddRef();
    return result;
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }

  // For creation calls: releases what is held and gives the slot with its IID.
  void** Receive() {
    *this = ComPtr();
    return reinterpret_cast<void**>(&p_);
  }
  static const IID& Iid() { return __uuidof(T); }

 private:
  T* p_ = nullptr;
};

// The three calls that return a struct. Microsoft's headers, compiled by mingw-w64, declare them
// the way the ABI passes the result (through a pointer); elsewhere they return it.
#if defined(_WIN32) && !defined(_MSC_VER)
inline D3D12_RESOURCE_DESC DescOf(ID3D12Resource* resource) {
  D3D12_RESOURCE_DESC desc;
  return *resource->GetDesc(&desc);
}
inline D3D12_CPU_DESCRIPTOR_HANDLE CpuStartOf(ID3D12DescriptorHeap* heap) {
  D3D12_CPU_DESCRIPTOR_HANDLE handle;
  return *heap->GetCPUDescriptorHandleForHeapStart(&handle);
}
inline D3D12_GPU_DESCRIPTOR_HANDLE GpuStartOf(ID3D12DescriptorHeap* heap) {
  D3D12_GPU_DESCRIPTOR_HANDLE handle;
  return *heap->GetGPUDescriptorHandleForHeapStart(&handle);
}
#else
inline D3D12_RESOURCE_DESC DescOf(ID3D12Resource* resource) { return resource->GetDesc(); }
inline D3D12_CPU_DESCRIPTOR_HANDLE CpuStartOf(ID3D12DescriptorHeap* heap) {
  return heap->GetCPUDescriptorHandleForHeapStart();
}
inline D3D12_GPU_DESCRIPTOR_HANDLE GpuStartOf(ID3D12DescriptorHeap* heap) {
  return heap->GetGPUDescriptorHandleForHeapStart();
}
#endif

}  // namespace gs::d3d12
