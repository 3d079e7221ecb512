#include "pjrt/element_types.h"

#include <fmt/format.h>

#include <array>

namespace vkhlo::pjrt {
namespace {

struct ElementTypeEntry {
  PJRT_Buffer_Type pjrt;
  std::string_view pjrt_name;
  std::string_view vkhlo;  // "" for types that hold no tensor data
  int host_bytes;
};

constexpr std::array kElementTypes = {
    ElementTypeEntry{PJRT_Buffer_Type_INVALID, "INVALID", "", 0},
    ElementTypeEntry{PJRT_Buffer_Type_PRED, "PRED", "i1", 1},
    ElementTypeEntry{PJRT_Buffer_Type_S2, "S2", "i2", 1},
    ElementTypeEntry{PJRT_Buffer_Type_S4, "S4", "i4", 1},
    ElementTypeEntry{PJRT_Buffer_Type_S8, "S8", "i8", 1},
    ElementTypeEntry{PJRT_Buffer_Type_S16, "S16", "i16", 2},
    ElementTypeEntry{PJRT_Buffer_Type_S32, "S32", "i32", 4},
    ElementTypeEntry{PJRT_Buffer_Type_S64, "S64", "i64", 8},
    ElementTypeEntry{PJRT_Buffer_Type_U2, "U2", "ui2", 1},
    ElementTypeEntry{PJRT_Buffer_Type_U4, "U4", "ui4", 1},
    ElementTypeEntry{PJRT_Buffer_Type_U8, "U8", "ui8", 1},
    ElementTypeEntry{PJRT_Buffer_Type_U16, "U16", "ui16", 2},
    ElementTypeEntry{PJRT_Buffer_Type_U32, "U32", "ui32", 4},
    ElementTypeEntry{PJRT_Buffer_Type_U64, "U64", "ui64", 8},
    ElementTypeEntry{PJRT_Buffer_Type_F16, "F16", "f16", 2},
    ElementTypeEntry{PJRT_Buffer_Type_F32, "F32", "f32", 4},
    ElementTypeEntry{PJRT_Buffer_Type_F64, "F64", "f64", 8},
    ElementTypeEntry{PJRT_Buffer_Type_BF16, "BF16", "bf16", 2},
    ElementTypeEntry{PJRT_Buffer_Type_C64, "C64", "complex<f32>", 8},
    ElementTypeEntry{PJRT_Buffer_Type_C128, "C128", "complex<f64>", 16},
    ElementTypeEntry{PJRT_Buffer_Type_F8E5M2, "F8E5M2", "f8E5M2", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E4M3FN, "F8E4M3FN", "f8E4M3FN", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E4M3B11FNUZ, "F8E4M3B11FNUZ", "f8E4M3B11FNUZ", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E5M2FNUZ, "F8E5M2FNUZ", "f8E5M2FNUZ", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E4M3FNUZ, "F8E4M3FNUZ", "f8E4M3FNUZ", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E4M3, "F8E4M3", "f8E4M3", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E3M4, "F8E3M4", "f8E3M4", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F8E8M0FNU, "F8E8M0FNU", "f8E8M0FNU", 1},
    ElementTypeEntry{PJRT_Buffer_Type_F4E2M1FN, "F4E2M1FN", "f4E2M1FN", 1},
    ElementTypeEntry{PJRT_Buffer_Type_TOKEN, "TOKEN", "", 0},
};

const ElementTypeEntry* Find(PJRT_Buffer_Type type) {
  for (const ElementTypeEntry& entry : kElementTypes) {
    if (entry.pjrt == type) return &entry;
  }
  return nullptr;
}

}  // namespace

StatusOr<std::string> VkhloElementType(PJRT_Buffer_Type type) {
  const ElementTypeEntry* entry = Find(type);
  if (entry == nullptr) {
    return UnimplementedError(fmt::format("PJRT element type {} is unknown to the vkhlo plugin", static_cast<int>(type)));
  }
  if (entry->vkhlo.empty()) {
    return UnimplementedError(fmt::format("PJRT element type {} holds no tensor data", entry->pjrt_name));
  }
  return std::string(entry->vkhlo);
}

std::optional<PJRT_Buffer_Type> PjrtElementType(std::string_view vkhlo_type) {
  // "si32" is accepted by vkhlo as "i32".
  if (vkhlo_type.starts_with("si")) vkhlo_type.remove_prefix(1);
  for (const ElementTypeEntry& entry : kElementTypes) {
    if (!entry.vkhlo.empty() && entry.vkhlo == vkhlo_type) return entry.pjrt;
  }
  return std::nullopt;
}

int HostElementBytes(PJRT_Buffer_Type type) {
  const ElementTypeEntry* entry = Find(type);
  return entry == nullptr ? 0 : entry->host_bytes;
}

std::string_view PjrtElementTypeName(PJRT_Buffer_Type type) {
  const ElementTypeEntry* entry = Find(type);
  return entry == nullptr ? std::string_view("unknown") : entry->pjrt_name;
}

}  // namespace vkhlo::pjrt
