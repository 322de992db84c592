// SPDX-License-Identifier: BSD-3-Clause
#include "core/coll/reduce_ops.hpp"

#include <algorithm>
#include <cstdint>

namespace hympi::core {
namespace {

template <class T, class F>
void apply(void* dst, const void* a, const void* b, std::size_t n, F f) {
  T* d = static_cast<T*>(dst);
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  for (std::size_t i = 0; i < n; ++i) d[i] = f(x[i], y[i]);
}

template <class T>
void combine_typed(void* dst, const void* a, const void* b, std::size_t n, Op op) {
  switch (op) {
    case Op::sum: return apply<T>(dst, a, b, n, [](T x, T y) { return T(x + y); });
    case Op::prod: return apply<T>(dst, a, b, n, [](T x, T y) { return T(x * y); });
    case Op::min: return apply<T>(dst, a, b, n, [](T x, T y) { return std::min(x, y); });
    case Op::max: return apply<T>(dst, a, b, n, [](T x, T y) { return std::max(x, y); });
  }
}

}  // namespace

void combine(void* dst, const void* a, const void* b, std::size_t count, Datatype type, Op op) {
  switch (type) {
    case Datatype::float64: return combine_typed<double>(dst, a, b, count, op);
    case Datatype::float32: return combine_typed<float>(dst, a, b, count, op);
    case Datatype::int32: return combine_typed<int32_t>(dst, a, b, count, op);
    case Datatype::int64: return combine_typed<int64_t>(dst, a, b, count, op);
  }
}

}  // namespace hympi::core
