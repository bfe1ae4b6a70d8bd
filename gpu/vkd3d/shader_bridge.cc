// The Linux bridge (design/gpu-path.md): vkd3d 1.2 accepts only DXBC, and our kernels are
// SPIR-V from glslc. libvkd3d imports vkd3d_shader_compile and vkd3d_shader_scan from
// libvkd3d-shader, so an executable that exports its own definitions receives every
// pipeline's bytecode first. SPIR-V gets its DescriptorSet/Binding decorations rewritten to
// what vkd3d assigned to each D3D12 register; anything else (vkd3d's own DXBC shaders) goes
// to the real library.
//
// glslc's bindings (gpu/CMakeLists.txt): set = register space, binding = 1000 x class +
// register, with class 0 for t# (SRV), 1 for u# (UAV), 2 for b# (CBV).
#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <vkd3d_shader.h>

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kSpirvHeaderWords = 5;
constexpr uint32_t kBindingsPerClass = 1000;

template <typename Fn>
Fn RealFunction(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

bool IsSpirv(const vkd3d_shader_code& code) {
  uint32_t magic = 0;
  if (code.size < kSpirvHeaderWords * 4 || code.size % 4 != 0) return false;
  std::memcpy(&magic, code.code, 4);
  return magic == kSpirvMagic;
}

template <typename T>
const T* FindInChain(const void* next, vkd3d_shader_structure_type type) {
  struct Header {
    vkd3d_shader_structure_type type;
    const void* next;
  };
  for (auto* header = static_cast<const Header*>(next); header != nullptr;
       header = static_cast<const Header*>(header->next)) {
    if (header->type == type) return reinterpret_cast<const T*>(header);
  }
  return nullptr;
}

// The Vulkan binding vkd3d chose for a D3D12 register: for SRVs and UAVs the buffer one
// (vkd3d also lists an image binding for each), for CBVs the one binding there is.
const vkd3d_shader_descriptor_binding* FindBinding(const vkd3d_shader_interface_info& info,
                                                   vkd3d_shader_descriptor_type type,
                                                   uint32_t space, uint32_t index) {
  for (unsigned i = 0; i < info.binding_count; ++i) {
    const vkd3d_shader_resource_binding& b = info.bindings[i];
    if (b.type != type || b.register_space != space || b.register_index != index) continue;
    if (type != VKD3D_SHADER_DESCRIPTOR_TYPE_CBV && !(b.flags & VKD3D_SHADER_BINDING_FLAG_BUFFER)) {
      continue;
    }
    return &b.binding;
  }
  return nullptr;
}

// Rewrites the decorations in place; false if a resource has no binding in the interface.
bool Rebind(std::vector<uint32_t>& words, const vkd3d_shader_interface_info& info) {
  struct Resource {
    uint32_t id;
    uint32_t set = 0, binding = 0;
    size_t setWord = 0, bindingWord = 0;
  };
  std::vector<Resource> resources;
  auto resourceFor = [&](uint32_t id) -> Resource& {
    for (Resource& r : resources) {
      if (r.id == id) return r;
    }
    resources.push_back(Resource{id});
    return resources.back();
  };
  for (size_t i = kSpirvHeaderWords; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) return false;
    if (opcode == kOpDecorate && count == 4) {
      if (words[i + 2] == kDecorationDescriptorSet) {
        Resource& r = resourceFor(words[i + 1]);
        r.set = words[i + 3];
        r.setWord = i + 3;
      } else if (words[i + 2] == kDecorationBinding) {
        Resource& r = resourceFor(words[i + 1]);
        r.binding = words[i + 3];
        r.bindingWord = i + 3;
      }
    }
    i += count;
  }
  for (const Resource& r : resources) {
    if (r.setWord == 0 || r.bindingWord == 0) return false;
    const uint32_t descriptorClass = r.binding / kBindingsPerClass;
    const uint32_t registerIndex = r.binding % kBindingsPerClass;
    const vkd3d_shader_descriptor_type type =
        descriptorClass == 0   ? VKD3D_SHADER_DESCRIPTOR_TYPE_SRV
        : descriptorClass == 1 ? VKD3D_SHADER_DESCRIPTOR_TYPE_UAV
                               : VKD3D_SHADER_DESCRIPTOR_TYPE_CBV;
    const vkd3d_shader_descriptor_binding* target = FindBinding(info, type, r.set, registerIndex);
    if (target == nullptr) return false;
    words[r.setWord] = target->set;
    words[r.bindingWord] = target->binding;
  }
  return true;
}

}  // namespace

extern "C" {

int vkd3d_shader_compile(const vkd3d_shader_compile_info* compile_info, vkd3d_shader_code* out,
                         char** messages) {
  if (compile_info == nullptr || !IsSpirv(compile_info->source)) {
    static const auto real = RealFunction<PFN_vkd3d_shader_compile>("vkd3d_shader_compile");
    if (real == nullptr) return VKD3D_ERROR;
    return real(compile_info, out, messages);
  }
  if (messages != nullptr) *messages = nullptr;
  const auto* info = FindInChain<vkd3d_shader_interface_info>(
      compile_info->next, VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO);
  std::vector<uint32_t> words(compile_info->source.size / 4);
  std::memcpy(words.data(), compile_info->source.code, compile_info->source.size);
  if (info == nullptr || !Rebind(words, *info)) return VKD3D_ERROR_INVALID_SHADER;
  // vkd3d frees the result with vkd3d_shader_free_shader_code, which calls free().
  void* code = std::malloc(compile_info->source.size);
  if (code == nullptr) return VKD3D_ERROR_OUT_OF_MEMORY;
  std::memcpy(code, words.data(), compile_info->source.size);
  out->code = code;
  out->size = compile_info->source.size;
  return VKD3D_OK;
}

// vkd3d scans a shader for UAV counters and descriptor types; our kernels use neither
// counters nor anything it must prepare, so the answer is an empty descriptor list.
int vkd3d_shader_scan(const vkd3d_shader_compile_info* compile_info, char** messages) {
  if (compile_info == nullptr || !IsSpirv(compile_info->source)) {
    static const auto real = RealFunction<PFN_vkd3d_shader_scan>("vkd3d_shader_scan");
    if (real == nullptr) return VKD3D_ERROR;
    return real(compile_info, messages);
  }
  if (messages != nullptr) *messages = nullptr;
  auto* scan = const_cast<vkd3d_shader_scan_descriptor_info*>(
      FindInChain<vkd3d_shader_scan_descriptor_info>(
          compile_info->next, VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO));
  if (scan != nullptr) {
    scan->descriptors = nullptr;
    scan->descriptor_count = 0;
  }
  return VKD3D_OK;
}

}  // extern "C"
