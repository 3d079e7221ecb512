// GoogleTest prints literals in XLA's text (found by argument-dependent lookup).
#pragma once

#include <ostream>

#include "vkhlo/literal.h"

namespace vkhlo {

inline void PrintTo(const Literal& literal, std::ostream* os) { *os << literal.ToStringWithLayout(); }

}  // namespace vkhlo
