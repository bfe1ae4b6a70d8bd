// Test-only: the D3D12 API in its C form (CINTERFACE: a COM object is a struct whose first
// member is its vtable pointer), from the headers gpu/d3d12/d3d12_api.h picks, for tests that
// swap a device's vtable. Include it only in files that need that view of the types.
#pragma once

#define CINTERFACE
#if defined(_WIN32)
#define COBJMACROS
#include <windows.h>
#include <directx/d3d12.h>
#else
#include <vkd3d_windows.h>  // first, as in gpu/d3d12/d3d12_api.h
#include <vkd3d_d3d12.h>
#endif
