// SPDX-License-Identifier: BSD-3-Clause
#include "petsc/unit.hpp"

#include <climits>
#include <cstdint>

namespace hympi::petsc {
namespace {

std::optional<Datatype> predefined(MPI_Datatype t) {
  if (t == MPI_DOUBLE) return Datatype::float64;
  if (t == MPI_FLOAT) return Datatype::float32;
  if (t == MPI_INT32_T || (t == MPI_INT && sizeof(int) == 4)) return Datatype::int32;
  if (t == MPI_INT64_T || (t == MPI_LONG_LONG && sizeof(long long) == 8) || (t == MPI_LONG && sizeof(long) == 8))
    return Datatype::int64;
  return std::nullopt;
}

/// The one type a DUP or CONTIGUOUS type is made of, and its repeat count.
std::optional<Unit> derived(MPI_Datatype t, int combiner, int ints, int addresses, int types) {
  if (addresses != 0 || types != 1 || ints != (combiner == MPI_COMBINER_DUP ? 0 : 1)) return std::nullopt;
  int count = 1;
  MPI_Aint no_address = 0;
  MPI_Datatype inner = MPI_DATATYPE_NULL;
  if (MPI_Type_get_contents(t, ints, 0, 1, &count, &no_address, &inner) != MPI_SUCCESS) return std::nullopt;
  std::optional<Unit> of = unit_of(inner);
  int inner_ints = 0, inner_addresses = 0, inner_types = 0, inner_combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(inner, &inner_ints, &inner_addresses, &inner_types, &inner_combiner);
  if (inner_combiner != MPI_COMBINER_NAMED) MPI_Type_free(&inner);  // get_contents returned a new handle
  if (!of || count < 1 || of->count > INT_MAX / count) return std::nullopt;
  return Unit{of->type, of->count * count};
}

}  // namespace

std::optional<Unit> unit_of(MPI_Datatype unit) {
  if (unit == MPI_DATATYPE_NULL) return std::nullopt;
  if (std::optional<Datatype> t = predefined(unit)) return Unit{*t, 1};
  int ints = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  if (MPI_Type_get_envelope(unit, &ints, &addresses, &types, &combiner) != MPI_SUCCESS) return std::nullopt;
  if (combiner == MPI_COMBINER_DUP || combiner == MPI_COMBINER_CONTIGUOUS)
    return derived(unit, combiner, ints, addresses, types);
  return std::nullopt;
}

}  // namespace hympi::petsc
