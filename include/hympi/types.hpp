// SPDX-License-Identifier: BSD-3-Clause
// Element types, reduction operations and the error type of hympi's public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "hympi/names.h"

namespace hympi {

/// Element types of collectives and ghost updates.
enum class Datatype : uint8_t { HYMPI_DATATYPES(HYMPI_CXX_ENUMERATOR) };

/// Reduction operations (MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX).
enum class Op : uint8_t { HYMPI_OPS(HYMPI_CXX_ENUMERATOR) };

constexpr std::size_t size_of(Datatype type) {
  switch (type) {
    case Datatype::float64: return sizeof(double);
    case Datatype::float32: return sizeof(float);
    case Datatype::int32: return sizeof(int32_t);
    case Datatype::int64: return sizeof(int64_t);
  }
  return 0;
}
const char* name_of(Datatype type);
const char* name_of(Op op);

template <class T>
constexpr Datatype datatype_of() {
  if constexpr (std::is_same_v<T, double>) return Datatype::float64;
  else if constexpr (std::is_same_v<T, float>) return Datatype::float32;
  else if constexpr (std::is_same_v<T, int32_t>) return Datatype::int32;
  else if constexpr (std::is_same_v<T, int64_t>) return Datatype::int64;
  else static_assert(!sizeof(T), "hympi supports double, float, int32_t and int64_t");
}

/// Every error hympi reports. Collective errors (mismatched arguments, bad input that
/// some rank detected) are thrown on every rank involved, with the same message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hympi
